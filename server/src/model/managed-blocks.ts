/**
 * Managed blocks: text a tool writes between paired markers (`<!-- BEGIN BEADS INTEGRATION -->` …
 * `<!-- END BEADS INTEGRATION -->`, any tool's name) and rewrites on its next run. A plan keeps each
 * byte for byte and puts nothing inside or across it (issue 40).
 */
const BEGIN = /^\s*<!--\s*BEGIN\b/i;
const END = /^\s*<!--\s*END\b/i;

/** The blocks of a file's lines: 0-based index of the BEGIN line and of its END line, both included. */
export function managedBlocks(lines: readonly string[]): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!BEGIN.test(lines[i]!)) continue;
    let end = -1;
    for (let j = i + 1; j < lines.length && end < 0; j++) if (END.test(lines[j]!)) end = j;
    if (end < 0) continue;
    out.push({ start: i, end });
    i = end;
  }
  return out;
}
