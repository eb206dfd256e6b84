import type { Scope, Unit } from '../../model/model.js';
import { pushTo } from '../../common/collections.js';
import { meet, problem, type Drifted, type Line } from './drift-lines.js';

/**
 * One command documented in the same words in two files, and changed in one of them (issue 39): lines
 * of code whose comments say the same ("./gradlew :jabgui:run   # Build and launch the GUI" /
 * "./gradlew :jabui:run   # Build and launch the GUI") and whose code differs in one token. The
 * comment says the two lines are one command, so the token is a drifted value, whatever its kind. Two
 * examples that differ by the file they run on have comments of their own ("# one file", "# a folder").
 */

/** A comment after the code on its line: the code before it, and the comment's words. */
const TRAILING = /^(.*?\S)\s+(?:#|\/\/)\s+(.*\S)\s*$/;
/** A comment of fewer words names nothing to tell one command from another ("# dev", "# tests"). */
const MIN_COMMENT_WORDS = 3;
/** Lines sharing a comment beyond this many are boilerplate ("# optional"), not copies of one command. */
const MAX_GROUP = 12;

interface Captioned {
  line: Line;
  code: string[];
}

/** The code lines of the units with a comment of their own at their end, grouped by the comment's words. */
function byComment(units: Unit[], scopeOf: (u: Unit) => Scope): Map<string, Captioned[]> {
  const out = new Map<string, Captioned[]>();
  for (const u of units) {
    if (u.kind !== 'code') continue;
    for (let i = 1; i < u.lines.length; i++) {
      const m = TRAILING.exec(u.lines[i]!);
      if (!m || /^\s*(?:#|\/\/|`{3,}|~{3,})/.test(m[1]!)) continue;
      const words = m[2]!.toLowerCase().split(/\s+/);
      if (words.length < MIN_COMMENT_WORDS) continue;
      const line: Line = { path: u.path, line: u.line + i, text: m[1]!.trim(), scope: scopeOf(u), section: '', unit: u.line };
      pushTo(out, words.join(' '), { line, code: line.text.split(/\s+/) });
    }
  }
  return out;
}

/** Whether `long` is `short` spelled out: it starts with it, or ends with it after a separator (`test_name`). */
const longerForm = (short: string, long: string): boolean =>
  long.startsWith(short) || (long.endsWith(short) && /[-_.:/]$/.test(long.slice(0, -short.length)));

/** The one token two commands differ in (same length), or -1. */
function oneTokenApart(a: string[], b: string[]): number {
  if (a.length !== b.length) return -1;
  let at = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (at >= 0) return -1;
    at = i;
  }
  return at;
}

export function captionedCode(units: Unit[], scopeOf: (u: Unit) => Scope): Drifted[] {
  const out: Drifted[] = [];
  for (const group of byComment(units, scopeOf).values()) {
    if (group.length < 2 || group.length > MAX_GROUP) continue;
    const values = new Map<string, Line[]>();
    for (let x = 0; x < group.length; x++)
      for (let y = x + 1; y < group.length; y++) {
        const [p, q] = [group[x]!, group[y]!];
        if (p.line.path === q.line.path || !meet(p.line, q.line)) continue;
        const at = oneTokenApart(p.code, q.code);
        if (at < 0) continue;
        for (const r of [p, q]) if (!values.get(r.code[at]!)?.includes(r.line)) pushTo(values, r.code[at]!, r.line);
      }
    if (values.size !== 2) continue;
    const groups = [...values.values()];
    // A file that holds both commands under one comment lists two commands, not a copy edited.
    const sides = groups.map((g) => new Set(g.map((l) => l.text)));
    const holds = (path: string, side: Set<string>) => group.some((c) => c.line.path === path && side.has(c.line.text));
    if (group.some((c) => holds(c.line.path, sides[0]!) && holds(c.line.path, sides[1]!))) continue;
    const shown = [...values.keys()];
    // A longer form of one value ("name" / "test_name", a placeholder spelled out) names the same thing.
    const [a, b] = shown.map((v) => v.toLowerCase()) as [string, string];
    if (longerForm(a, b) || longerForm(b, a)) continue;
    out.push(problem('drifted-copy', shown.join(' or '), `the same command with ${shown.map((v) => `"${v}"`).join(' vs ')}`, groups));
  }
  return out;
}
