import { managedLineNumbers } from '../../model/managed-blocks.js';

interface Located {
  locations: readonly { path: string; line: number }[];
}

/**
 * Leaves out the contradictions whose every line lies inside a block a tool writes and rewrites
 * (`<!-- x-start -->` … `<!-- x-end -->`, model/managed-blocks.ts): a plan keeps such a block byte for
 * byte in its file, so no choice, mark or edit in this repository can settle the disagreement, and
 * `check` must not fail on it after a migration. One line of the person's own is enough to report it.
 */
export function leaveToolOwned<T extends Located>(found: T[], textOf: (path: string) => string | undefined): T[] {
  if (found.length === 0) return found;
  const managed = new Map<string, ReadonlySet<number> | null>();
  const inBlock = (path: string, line: number): boolean => {
    let lines = managed.get(path);
    if (lines === undefined) {
      const text = textOf(path);
      lines = text?.includes('<!--') ? managedLineNumbers(text.split('\n')) : null;
      managed.set(path, lines);
    }
    return lines?.has(line) ?? false;
  };
  return found.filter((p) => !p.locations.every((l) => inBlock(l.path, l.line)));
}
