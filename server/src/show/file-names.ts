import { showPath } from './untrusted.js';

/** More paths than this in one sentence are counted, not all named: the files list below names each one. */
export const NAMED_IN_FULL = 5;
/** How many paths a counted list still names, so that the reader sees what kind of files they are. */
const NAMED_FIRST = 3;

/**
 * Paths for a sentence: all of them when they are few ("AGENTS.md, CLAUDE.md"), else their number
 * and the first few ("16 files (AGENTS.md, docs/AGENTS.md, tests/AGENTS.md and 13 more)"). A name that holds anything but plain printable
 * characters is quoted (showPath), so it cannot break or fake the sentence.
 */
export function fileNames(paths: readonly string[]): string {
  if (paths.length <= NAMED_IN_FULL) return paths.map(showPath).join(', ');
  return `${paths.length} files (${paths.slice(0, NAMED_FIRST).map(showPath).join(', ')} and ${paths.length - NAMED_FIRST} more)`;
}
