import type { LineMap } from './line-map.js';
import type { Rendered } from './rendered.js';

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

/** Take out the source lines in `dropped`: a dropped rule takes one of the blank lines around it along, so no double gap is left. */
export function dropLines(r: Rendered, dropped: LineMap<unknown>): Rendered {
  if (dropped.size === 0) return r;
  const out: Rendered = { lines: [], refs: [] };
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
