/**
 * Managed blocks: text a tool writes between paired markers and rewrites on its next run, whichever
 * tool it is: `<!-- BEGIN BEADS INTEGRATION -->` … `<!-- END BEADS INTEGRATION -->`, or the
 * `<!-- usage-rules-start -->` … `<!-- usage-rules-end -->` pairs of Elixir's usage_rules (named
 * pairs, nested sub-blocks and all). A plan keeps each byte for byte, whether the file stays or its
 * text moves, and puts nothing inside or across it (issue 40).
 */
const BEGIN = /^\s*<!--\s*BEGIN\b/i;
const END = /^\s*<!--\s*END\b/i;
/** `<!-- name-start -->` and `<!-- name-end -->` (`-`, `_` or `:` before the word): a pair by its name. */
const NAMED = /^\s*<!--\s*(\S+?)[-_:](start|end)\s*-->\s*$/i;

/** The blocks of a file's lines: 0-based index of the start line and of its end line, both included; outermost only. */
export function managedBlocks(lines: readonly string[]): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const end = blockEnd(lines, i);
    if (end < 0) continue;
    out.push({ start: i, end });
    i = end;
  }
  return out;
}

/** The index of the line closing a block opened at `i`, or -1 when line `i` opens none. */
function blockEnd(lines: readonly string[], i: number): number {
  const line = lines[i]!;
  if (BEGIN.test(line)) {
    for (let j = i + 1; j < lines.length; j++) if (END.test(lines[j]!)) return j;
    return -1;
  }
  const open = NAMED.exec(line);
  if (!open || open[2]!.toLowerCase() !== 'start') return -1;
  const name = open[1]!.toLowerCase();
  for (let j = i + 1; j < lines.length; j++) {
    const close = NAMED.exec(lines[j]!);
    if (close && close[2]!.toLowerCase() === 'end' && close[1]!.toLowerCase() === name) return j;
  }
  return -1;
}

/** The 1-based numbers of the lines inside a managed block, markers included: lines no choice drops or edits. */
export function managedLineNumbers(lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const b of managedBlocks(lines)) for (let i = b.start; i <= b.end; i++) out.add(i + 1);
  return out;
}

/**
 * Whether all of a file's text but its front matter lies inside managed blocks: its rules stay where
 * their tool keeps them (planning/managed-stays.ts), so nothing of it moves to Copilot.
 */
export function allInManagedBlocks(units: readonly { kind: string; line: number; lines: readonly string[] }[], text: string): boolean {
  if (!text.includes('<!--')) return false;
  const inside = managedLineNumbers(text.split('\n'));
  return units.every((u) => u.kind === 'frontmatter' || (inside.has(u.line) && inside.has(u.line + u.lines.length - 1)));
}
