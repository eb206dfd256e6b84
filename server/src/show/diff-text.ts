import { inspect } from 'node:util';
import { diffEnd, diffLineKinds, type DiffLineKind } from './diff-lines.js';

/** Unified diffs inside a form message: found, coloured for a terminal, or left out. */

export interface Part {
  text: string;
  diff: boolean;
}

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

/** The text with every diff replaced by one line (the first) or dropped (the rest), and a cut-off note dropped. */
export function withoutDiffs(text: string, placeholder: string): string {
  let replaced = false;
  const out: string[] = [];
  for (const part of diffParts(text)) {
    if (!part.diff)
      out.push(
        part.text
          .split('\n')
          .filter((l) => !l.startsWith('… (diff cut at') && !l.startsWith('… the diff continues in'))
          .join('\n'),
      );
    else if (!replaced) {
      out.push(placeholder);
      replaced = true;
    }
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** SGR codes, set and reset, by what a line is in its diff. */
const PAINT: Partial<Record<DiffLineKind, [number, number]>> = { file: [1, 22], hunk: [36, 39], added: [32, 39], removed: [31, 39] };

/**
 * Colours every line of a diff by its position in its hunk: additions green, removals red, hunk
 * headers cyan, file headers bold. Lines outside a diff stay as they are.
 */
export function colourDiff(diff: string, colour: boolean): string {
  if (!colour) return diff;
  const lines = diff.split('\n');
  const kinds = diffLineKinds(lines);
  return lines
    .map((l, i) => {
      const paint = PAINT[kinds[i]!];
      return paint ? `\x1b[${paint[0]}m${l}\x1b[${paint[1]}m` : l;
    })
    .join('\n');
}

/** Colours only the diffs inside a message. */
export function colourDiffsIn(text: string, colour: boolean): string {
  if (!colour) return text;
  return diffParts(text)
    .map((p) => (p.diff ? colourDiff(p.text, true) : p.text))
    .join('\n');
}

/**
 * Whether to colour what goes to `stream`, as Node decides for its own colours: FORCE_COLOR forces
 * colour on (or off, when 0 or false), a NO_COLOR that is set and not empty prevents it, else a
 * terminal has it.
 */
export function colourFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true;
}

/** A style Node knows by name (`bold`, `cyan`, …; see util.inspect.colors). */
export type StyleName = 'bold' | 'dim' | 'italic' | 'underline' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray';

/**
 * The one place the CLI decides on colour for anything besides diffs (headings, names): `text` in
 * the styles when `stream` gets colour by the rule of colourFor (FORCE_COLOR, NO_COLOR, a terminal),
 * else as it is. Node's own styleText does not look at NO_COLOR before Node 22.13.
 */
export function styled(
  styles: StyleName | StyleName[],
  text: string,
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (!colourFor(stream, env)) return text;
  return ([] as StyleName[]).concat(styles).reduceRight((t: string, name) => {
    const codes = inspect.colors[name];
    return codes ? `\x1b[${codes[0]}m${t}\x1b[${codes[1]}m` : t;
  }, text);
}
