/** More paths than this in one sentence are counted, not all named: the files list below names each one. */
export const NAMED_IN_FULL = 5;
/** How many paths a counted list still names, so that the reader sees what kind of files they are. */
const NAMED_FIRST = 3;

/**
 * Paths for a sentence: all of them when they are few ("AGENTS.md, CLAUDE.md"), else their number
 * and the first few ("16 files (AGENTS.md, docs/AGENTS.md, tests/AGENTS.md and 13 more)").
 */
export function fileNames(paths: readonly string[]): string {
  if (paths.length <= NAMED_IN_FULL) return paths.join(', ');
  return `${paths.length} files (${paths.slice(0, NAMED_FIRST).join(', ')} and ${paths.length - NAMED_FIRST} more)`;
}
