import type { Scope, Unit } from '../../model/model.js';
import type { ProblemKind } from '../../model/findings.js';
import type { FoundContradiction } from '../../model/problem.js';
import { contradictionDescription } from '../contradictions/find-contradictions.js';
import { scopesOverlap } from '../scope/scope-overlap.js';
import { proseLines, sectionTitle } from '../contradictions/claims.js';
import { ruleText } from '../contradictions/claim-reader.js';

/** The lines the drift finders compare (drift.ts, drifted-values.ts), and how a drifted group becomes a problem. */

export interface Line {
  path: string;
  line: number;
  text: string;
  scope: Scope;
  section: string;
  /** The first line of the unit (paragraph, list item) the line is in. */
  unit: number;
}

/**
 * The prose lines of the units (code blocks, front matter and headings aside), with their sections,
 * that `keep` wants: a Line object only for those (most lines of a large repository are none).
 */
export function linesOf(units: Unit[], scopeOf: (u: Unit) => Scope, keep: (path: string, text: string) => boolean): Line[] {
  const out: Line[] = [];
  const headings = new Map<string, string>();
  for (const u of units) {
    if (u.kind === 'heading') headings.set(u.path, sectionTitle(u));
    if (u.kind === 'heading' || u.kind === 'frontmatter' || u.kind === 'code') continue;
    for (const i of proseLines(u)) {
      const text = u.lines[i]!;
      if (!keep(u.path, text)) continue;
      out.push({ path: u.path, line: u.line + i, text, scope: scopeOf(u), section: headings.get(u.path) ?? '', unit: u.line });
    }
  }
  return out;
}

/** A comment after the code on its line (`# …`, `// …`), or a whole comment line. */
const CODE_COMMENT = /(?:^|\s+)(?:#|\/\/)(?:\s.*)?$/;

/**
 * The lines inside the code blocks of the units (fences aside), with their sections: a command or a
 * line of code copied into another file drifts like a rule does.
 */
export function codeLinesOf(units: Unit[], scopeOf: (u: Unit) => Scope): Line[] {
  const out: Line[] = [];
  const headings = new Map<string, string>();
  for (const u of units) {
    if (u.kind === 'heading') headings.set(u.path, sectionTitle(u));
    if (u.kind !== 'code') continue;
    for (let i = 1; i < u.lines.length; i++) {
      // A comment after the code says what it is for: two copies of one command may say it differently.
      const text = u.lines[i]!.replace(CODE_COMMENT, '');
      if (/^\s*(?:`{3,}|~{3,})/.test(text)) continue;
      out.push({ path: u.path, line: u.line + i, text, scope: scopeOf(u), section: headings.get(u.path) ?? '', unit: u.line });
    }
  }
  return out;
}

export const meet = (a: Line, b: Line) => scopesOverlap(a.scope, b.scope);
export const at = (l: Line) => `${l.path}:${l.line}`;
const quote = (t: string) => {
  const s = ruleText(t).trim().replace(/\s+/g, ' ').replace(/"/g, "'");
  return s.length > 100 ? `${s.slice(0, 97)}...` : s;
};

/** A problem with one side per group of lines, each side quoted once with its places; the title is its topic. */
export function problem(kind: ProblemKind<'contradiction'>, title: string, reason: string, groups: Line[][]): FoundContradiction {
  const said = `${reason}: ${groups.map((g) => `"${quote(g[0]!.text)}" (${g.map(at).join(', ')})`).join(' vs ')}`;
  return {
    type: 'contradiction',
    kind,
    description: contradictionDescription(title, said),
    locations: groups.flat().map((l) => ({ path: l.path, line: l.line })),
    sides: groups.flatMap((g, i) => g.map(() => i)),
    topic: title,
    said,
  };
}

/** The words and code spans of a rule, trimmed of punctuation (code spans kept whole, as written). */
export function tokens(text: string): string[] {
  const rule = ruleText(text);
  const raw = rule.includes('`') ? (rule.match(/`[^`]+`|[^\s`]+/g) ?? []) : rule.split(/\s+/);
  const out: string[] = [];
  for (const w of raw) {
    const t = w.startsWith('`') ? w : w.replace(/^[("'*_]+|[)"'*_.,;:!?]+$/g, '');
    if (t !== '') out.push(t);
  }
  return out;
}

/** A drifted pair or group: a contradiction with its topic and sides as data. */
export type Drifted = FoundContradiction;
