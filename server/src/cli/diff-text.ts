import { styleText } from 'node:util';

/** Unified diffs inside a form message: found, coloured for a terminal, or left out. */

export interface Part {
  text: string;
  diff: boolean;
}

const SEPARATOR = /^={10,}$/;
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** Splits text into runs of prose and runs of unified diff (file headers and hunks, by their line counts). */
export function diffParts(text: string): Part[] {
  const lines = text.split('\n');
  const parts: Part[] = [];
  const push = (line: string, diff: boolean) => {
    const last = parts.at(-1);
    if (last && last.diff === diff) last.text += `\n${line}`;
    else parts.push({ text: line, diff });
  };
  let i = 0;
  while (i < lines.length) {
    const end = diffEnd(lines, i);
    if (end > i) {
      for (; i < end; i++) push(lines[i]!, true);
    } else push(lines[i++]!, false);
  }
  return parts;
}

/** Where a diff that starts at line `i` ends (exclusive); `i` when none starts there. */
function diffEnd(lines: string[], start: number): number {
  let i = start;
  if (SEPARATOR.test(lines[i] ?? '') && lines[i + 1]?.startsWith('--- ')) i++;
  if (!(lines[i]?.startsWith('--- ') && lines[i + 1]?.startsWith('+++ '))) return start;
  i += 2;
  for (let m = HUNK.exec(lines[i] ?? ''); m; m = HUNK.exec(lines[i] ?? '')) {
    let before = m[1] === undefined ? 1 : Number(m[1]);
    let after = m[2] === undefined ? 1 : Number(m[2]);
    for (i++; (before > 0 || after > 0) && i < lines.length; i++) {
      const c = lines[i]![0];
      if (c === ' ') (before--, after--);
      else if (c === '-') before--;
      else if (c === '+') after--;
      else if (c !== '\\') break;
    }
    while (lines[i]?.startsWith('\\')) i++;
  }
  return i;
}

/** The text with every diff replaced by one line (the first) or dropped (the rest), and a cut-off note dropped. */
export function withoutDiffs(text: string, placeholder: string): string {
  let replaced = false;
  const out: string[] = [];
  for (const part of diffParts(text)) {
    if (!part.diff) out.push(part.text.split('\n').filter((l) => !l.startsWith('… (diff cut at')).join('\n'));
    else if (!replaced) (out.push(placeholder), (replaced = true));
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** Colours every line of a diff: additions green, removals red, hunks cyan, file names bold. */
export function colourDiff(diff: string, colour: boolean): string {
  if (!colour) return diff;
  return diff
    .split('\n')
    .map((l) =>
      l.startsWith('+++') || l.startsWith('---') ? styleText('bold', l) : l.startsWith('+') ? styleText('green', l) : l.startsWith('-') ? styleText('red', l) : l.startsWith('@@') ? styleText('cyan', l) : l,
    )
    .join('\n');
}

/** Colours only the diffs inside a message. */
export function colourDiffsIn(text: string, colour: boolean): string {
  if (!colour) return text;
  return diffParts(text)
    .map((p) => (p.diff ? colourDiff(p.text, true) : p.text))
    .join('\n');
}
