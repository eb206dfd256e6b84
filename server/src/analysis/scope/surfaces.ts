/**
 * Who reads what: for each Copilot surface, the instruction files it reads from a repository.
 * One table, in data (each format's `readBy` in the registry, model/formats.ts), so that the legacy
 * choices and the analyze report say the same thing.
 *
 * Sources (checked 2026-11-23; "coding agent" is called "cloud agent" since 2026-03-31):
 * - GitHub, "Support for different types of custom instructions"
 *   https://docs.github.com/en/copilot/reference/custom-instructions-support
 * - GitHub, "Adding repository custom instructions for GitHub Copilot"
 *   https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions
 * - VS Code, "Use custom instructions in VS Code"
 *   https://code.visualstudio.com/docs/copilot/customization/custom-instructions
 * The same table, with these sources, is in docs/formats.md ("Who reads what"). Keep both in step.
 *
 * Left out on purpose: VS Code reads nested AGENTS.md only behind an experimental setting
 * (`chat.useNestedAgentsMdFiles`), and the Copilot CLI reads an AGENTS.md in the folder it is
 * started from; neither is counted as "reads" here. No surface reads `.cursor/rules`,
 * `.cursorrules`, `.windsurfrules`, `.clinerules`, `.roorules` or `CONVENTIONS.md`.
 */

import { FORMAT_IDS, FORMATS_FACTS, readByOf, SURFACES, type ReadFile, type Surface } from '../../model/formats.js';

export { SURFACES, type ReadFile, type Surface };

/** The surfaces' names, in the order they are named to a person. */
export const SURFACE_NAMES: Record<Surface, string> = {
  'vscode-chat': 'VS Code chat',
  'cloud-agent': 'the cloud agent',
  'review-github': 'code review on GitHub.com',
  'review-vscode': 'code review in VS Code',
  'copilot-cli': 'the Copilot CLI',
};

/** The table, by surface: the rows of the registry's `readBy` (model/formats.ts) each surface reads. */
export const READS: Record<Surface, readonly ReadFile[]> = {
  'vscode-chat': rowsReadBy('vscode-chat'),
  'cloud-agent': rowsReadBy('cloud-agent'),
  'review-github': rowsReadBy('review-github'),
  'review-vscode': rowsReadBy('review-vscode'),
  'copilot-cli': rowsReadBy('copilot-cli'),
};

function rowsReadBy(surface: Surface): ReadFile[] {
  return FORMAT_IDS.flatMap((id) => FORMATS_FACTS[id].readBy.filter((r) => r.surfaces.includes(surface)).map((r) => r.row));
}

/** Which row of the table a discovered file is, from its kind and repository path; null for a file no surface reads. */
export function readFileOf(kind: string, path: string): ReadFile | null {
  return readByOf(kind, path)?.row ?? null;
}

/** The surfaces that read this file today, in table order (none for `.cursor/rules` and the like). */
export function readersOf(kind: string, path: string): Surface[] {
  const read = readByOf(kind, path);
  return read === undefined ? [] : SURFACES.filter((s) => read.surfaces.includes(s));
}

/** The surfaces that read a file of this row. */
export function readersOfFile(file: ReadFile): Surface[] {
  return SURFACES.filter((s) => READS[s].includes(file));
}

/** "VS Code chat, the cloud agent and the Copilot CLI". */
export function surfaceList(surfaces: readonly Surface[]): string {
  const names = surfaces.map((s) => SURFACE_NAMES[s]);
  if (names.length <= 1) return names[0] ?? 'no Copilot surface';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The surfaces that read `target` (a Copilot file) but not the legacy file: they see its rules only after the migration. */
export function newReaders(kind: string, path: string, target: string): Surface[] {
  const now = new Set(readersOf(kind, path));
  const targetKind = target.startsWith('.github/instructions/') ? 'copilot-path-instructions' : 'copilot-instructions';
  return readersOf(targetKind, target).filter((s) => !now.has(s));
}

/** One sentence for a person: who reads the file today, and who will see its rules only after the migration. */
export function readersSentence(kind: string, path: string, target: string): string {
  const now = readersOf(kind, path);
  const later = newReaders(kind, path, target);
  const today = now.length === 0 ? `${path} is read by no Copilot surface today` : `${path} is read today by ${surfaceList(now)}`;
  if (later.length === 0) return `${today}.`;
  return `${today}; ${surfaceList(later)} will see its rules only after the migration (from ${target}).`;
}
