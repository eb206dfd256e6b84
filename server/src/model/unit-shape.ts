import type { Unit } from './model.js';

/** Shapes of units that both analysis and planning read: tool marks, lead-ins, a file's head. */

/** A comment line copilot-onboard itself wrote (a conflict mark, a kept heading). */
export const isToolMark = (u: Unit): boolean => u.kind === 'html' && u.lines[0]!.startsWith('<!-- copilot-onboard:');

/** A table: a paragraph whose every line is a row (`| a | b |`). */
export const isTable = (u: Unit): boolean => u.kind === 'paragraph' && u.lines.every((l) => l.trim().startsWith('|'));

/** A paragraph that ends with ':' right before a list introduces that list, and travels with it. */
export function isLeadIn(units: Unit[], i: number): boolean {
  const u = units[i];
  // "Steps:" and "**Steps:**" alike.
  const last = u?.lines[u.lines.length - 1]!.trimEnd().replace(/[*_]+$/, '');
  return u !== undefined && u.kind === 'paragraph' && last!.endsWith(':') && units[i + 1]?.kind === 'list-item';
}

/**
 * How many leading units stay on top when a file is put in sections: front matter, the title, and
 * the prose right under the title (with any marks the tool put before it). A lead-in to a list is
 * not part of it: it goes with its list, and so does a paragraph `endsHead` says ends the head
 * (planning ends it at a rule of a flat rule-per-line paragraph). `isStructured` reads the same
 * head, so what `restructure` writes counts as structured.
 */
export function headLength(units: Unit[], endsHead: (u: Unit) => boolean = () => false): number {
  let i = 0;
  while (units[i]?.kind === 'frontmatter') i++;
  if (units[i]?.kind === 'heading' && units[i]!.level === 1) i++;
  if (i === 0) return 0;
  for (;;) {
    let j = i;
    while (units[j] && isToolMark(units[j]!)) j++;
    const u = units[j];
    if (u?.kind !== 'paragraph' || isLeadIn(units, j) || endsHead(u)) return i;
    i = j + 1;
  }
}

/** A `# ` heading one level down, as a `## ` section heading; its line is the source line with one `#` more. */
export function demoted(u: Unit): Unit {
  return { ...u, lines: [deeper(u.lines[0]!, 1)], level: 2 };
}

/** A heading line `by` levels down: the `#`s go after its indentation (` ## A` as ` ### A`, never `# ## A`). */
export function deeper(line: string, by: number): string {
  const indent = /^ {0,3}/.exec(line)![0];
  return `${indent}${'#'.repeat(by)}${line.slice(indent.length)}`;
}

/**
 * Whether an output line is a source line as the plan may write it: the same bytes, or the source
 * line made a heading by `#`s before it: a heading moved down with its tree (`## A` as `### A`), a
 * `# ` title demoted to `## `, or a pseudo-heading (`**Release:**`) written as `### **Release:**`.
 */
export function sameOrDemoted(source: string, out: string): boolean {
  if (source === out) return true;
  // An indented heading gets its `#`s after the indentation.
  const indent = /^ {1,3}(?=#)/.exec(source)?.[0];
  if (indent) return out.startsWith(indent) && sameOrDemoted(source.slice(indent.length), out.slice(indent.length));
  if (!out.endsWith(source)) return false;
  const prefix = out.slice(0, out.length - source.length);
  // A heading gets `#`s only; a line that was no heading gets `#`s and a space.
  return /^#{1,6}(\s|$)/.test(source) ? /^#{1,5}$/.test(prefix) : /^#{1,6} $/.test(prefix);
}
