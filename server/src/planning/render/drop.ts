import type { LineMap } from './line-map.js';
import type { LineRef, Rendered } from './rendered.js';

/** Take out `@path` import lines; one that ended the file takes the blank lines before it along. */
export function dropImports(r: Rendered, imports: LineMap<unknown>): Rendered {
  const out = dropLines(r, imports);
  const last = r.refs[r.refs.length - 1];
  if (out.lines.length < r.lines.length && last && imports.has(last)) {
    while (out.lines.length > 0 && out.refs[out.refs.length - 1] === null && out.lines[out.lines.length - 1]!.trim() === '') {
      out.lines.pop();
      out.refs.pop();
    }
  }
  return out;
}

/**
 * Take out the source lines in `dropped`: a dropped rule takes one of the blank lines around it
 * along, so no double gap is left; a heading whose rules were all dropped goes too, so no empty
 * heading is left behind (one that had no rules before stays as it was).
 */
export function dropLines(r: Rendered, dropped: LineMap<unknown>, emptied?: LineMap<LineRef>): Rendered {
  if (dropped.size === 0) return r;
  const out: Rendered = { lines: [], refs: [] };
  const from: number[] = [];
  let gapAfterDrop = false;
  r.refs.forEach((ref, i) => {
    if (ref && dropped.has(ref)) {
      gapAfterDrop = out.lines.length === 0 || out.lines[out.lines.length - 1]!.trim() === '';
      return;
    }
    const blank = ref === null && r.lines[i]!.trim() === '';
    if (blank && gapAfterDrop) return;
    gapAfterDrop = false;
    out.lines.push(r.lines[i]!);
    out.refs.push(ref);
    from.push(i);
  });
  // A dropped last block leaves no blank line at the end of the file.
  let lastText = r.lines.length - 1;
  while (lastText >= 0 && r.lines[lastText]!.trim() === '') lastText--;
  const lastRef = lastText < 0 ? null : r.refs[lastText];
  if (lastRef && dropped.has(lastRef))
    while (out.lines.length > 0 && out.lines[out.lines.length - 1]!.trim() === '') {
      out.lines.pop();
      out.refs.pop();
      from.pop();
    }
  const hadRules = emptySections(r.lines);
  const gone = [...emptySections(out.lines)].filter((i) => !hadRules.has(from[i]!));
  if (gone.length === 0) return out;
  // A source heading taken out this way is accounted for (lossless.ts), as a dropped line is.
  for (const i of gone) if (out.refs[i]) emptied?.set(out.refs[i], out.refs[i]);
  return withoutHeadings(out, new Set(gone));
}

const HEADING = /^(#{1,6})\s/;
const FENCE = /^\s*(`{3,}|~{3,})/;

/** The indices of the headings with nothing but blank lines and headings under them, down to the next heading of their level or above. */
function emptySections(lines: string[]): Set<number> {
  const headings: { at: number; level: number; content: boolean }[] = [];
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const f = FENCE.exec(line)?.[1];
    const h = fence === null ? HEADING.exec(line) : null;
    if (h) {
      headings.push({ at: i, level: h[1]!.length, content: false });
      return;
    }
    if (f && (fence === null || (f[0] === fence[0] && f.length >= fence.length))) fence = fence === null ? f : null;
    if (line.trim() === '') return;
    // A rule counts for every heading it is under.
    let level = 7;
    for (let k = headings.length - 1; k >= 0 && level > 1; k--) {
      if (headings[k]!.level < level) {
        headings[k]!.content = true;
        level = headings[k]!.level;
      }
    }
  });
  return new Set(headings.filter((h) => !h.content).map((h) => h.at));
}

/** `r` without the headings at `at`, each with the blank line after it. */
function withoutHeadings(r: Rendered, at: Set<number>): Rendered {
  const out: Rendered = { lines: [], refs: [] };
  let skipBlank = false;
  r.lines.forEach((line, i) => {
    if (at.has(i)) {
      skipBlank = true;
      return;
    }
    if (skipBlank && line.trim() === '') {
      skipBlank = false;
      return;
    }
    skipBlank = false;
    out.lines.push(line);
    out.refs.push(r.refs[i]!);
  });
  // A dropped last block leaves no blank line at the end of the file.
  while (
    out.lines.length < r.lines.length &&
    out.refs.length > 0 &&
    out.refs[out.refs.length - 1] === null &&
    out.lines[out.lines.length - 1]!.trim() === ''
  ) {
    out.lines.pop();
    out.refs.pop();
  }
  return out;
}
