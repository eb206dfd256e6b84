/**
 * A folder's name as the literal start of an `applyTo` glob. Copilot's readers split `applyTo` at
 * commas and read `*?[]{}` (and, in minimatch and picomatch, extglob's `()|`) as glob syntax, so a
 * folder named `x,**` would be written `x,**\/**`: two globs, the second matching every file. Each
 * such character is written as a one-character class (`[*]`), which VS Code's glob, minimatch,
 * picomatch and POSIX fnmatch all read as that character alone, and which VS Code's comma split
 * (outside `[]` and `{}`) leaves whole; a reader that splits at every comma gets globs that match
 * less, never more. Three things have no such escape: a `!` that starts the glob (a negation in
 * minimatch and picomatch: every file but these), a brace (minimatch expands `{b,c}` before it reads
 * any class: `a[{]b[,]c[}]` matches the folder `ab`), and a backslash (an escape in some readers, a
 * path separator in VS Code). A folder holding one cannot be written: null, and the caller leaves
 * its rules out with a note rather than make them apply wider.
 */

const SPECIAL = /[*?[\],()|]/g;

/** The folder (`a/b`, no trailing slash) as the literal start of a glob, or null when it cannot be written so. */
export function escapedFolder(folder: string): string | null {
  if (folder.startsWith('!') || /[\\{}]/.test(folder)) return null;
  return folder.replace(SPECIAL, (c) => `[${c}]`);
}

/** `<folder>/**`, the folder escaped; null when it cannot be written (escapedFolder). */
export function folderGlob(folder: string): string | null {
  const escaped = escapedFolder(folder);
  return escaped === null ? null : `${escaped}/**`;
}

/** Why a folder cannot be written in applyTo, for the note that says its rules were left out. */
export function unwritableFolderWhy(folder: string): string {
  const what = folder.startsWith('!')
    ? 'starts with "!" (Copilot may read it as every file but that folder\'s)'
    : /[{}]/.test(folder)
      ? 'holds a brace (Copilot may read it as a choice of other folders)'
      : 'holds a backslash (Copilot may read it as an escape or a path separator)';
  return `a file for a folder whose name ${what}, which applyTo cannot say: its rules are not made to apply wider`;
}
