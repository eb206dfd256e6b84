/**
 * Conflicts between rules that say the same thing differently (issue 29): the same line in two files
 * with one value changed (a drifted copy: "Run ESLint and Oxfmt checks" vs "Run ESLint and Prettier
 * checks"), one helper named two ways (`runInTmpDir()` vs `runInTempDir()`), a labelled line of a
 * copied file edited in one copy, and the two poles of a style choice (a comment on every function vs
 * comments only where needed). Each is a relation between two lines whose scopes meet; how sure each
 * kind is stands in certainty.ts (a drifted value and a drifted name are reported, the others are
 * worth a second look).
 */
import type { Scope, Unit } from '../../model/model.js';
import { pushTo } from '../../common/collections.js';
import { heldPairs } from '../../model/place-pairs.js';
import { filesThatMayMeet } from '../scope/scope-overlap.js';
import { codeCommands } from '../contradictions/claim-reader.js';
import { codeLinesOf, linesOf, meet, problem, type Drifted, type Line } from './drift-lines.js';
import { driftedValues } from './drifted-values.js';
import { driftedEdits, recasedCode, respelledNames } from './drifted-edits.js';
import { driftedSpans } from './drifted-spans.js';
import { captionedCode } from './captioned-code.js';
import { movedPaths } from './moved-paths.js';
import { staleLayouts } from './stale-layout.js';
import { frequencyPairs, mayStateFrequency } from './frequency.js';

export type { Drifted } from './drift-lines.js';

export function findDrift(
  units: Unit[],
  scopeOf: (u: Unit) => Scope,
  copies: readonly { path: string; keptPath: string }[] = [],
  meeting?: ReadonlySet<string>,
): Drifted[] {
  // Copies and names across files: only files whose scope meets another file's are read (an index,
  // not every pair: 500 rule files scoped to their own folders meet none). Style poles need a word.
  const shared = meeting ?? filesThatMayMeet([...new Map(units.map((u) => [u.path, { path: u.path, scope: scopeOf(u) }])).values()]);
  const copied = new Set(copies.flatMap((c) => [c.path, c.keptPath]));
  // One reading of the lines for every finder here: each takes those it needs.
  const lines = linesOf(
    units,
    scopeOf,
    (path, text) => shared.has(path) || copied.has(path) || STYLE_WORDS.test(text) || mayStateFrequency(text),
  );
  const across = lines.filter((l) => shared.has(l.path));
  const styled = lines.filter((l) => STYLE_WORDS.test(l.text));
  const frequent = lines.filter((l) => mayStateFrequency(l.text));
  // Lines of code blocks drift too (a command, a signature copied): read only where files meet.
  const code =
    shared.size === 0
      ? []
      : codeLinesOf(
          units.filter((u) => u.kind === 'code' && shared.has(u.path)),
          scopeOf,
        );
  const copiesFound = [...driftedValues(across), ...driftedEdits(across)];
  return [
    ...copiesFound,
    ...driftedSpans(across, heldPairs(copiesFound)),
    ...driftedValues(code, true),
    ...captionedCode(
      units.filter((u) => u.kind === 'code' && shared.has(u.path)),
      scopeOf,
    ),
    ...recasedCode(code),
    ...respelledNames(across),
    ...movedPaths(across),
    ...driftedNames(across),
    ...driftedLabels(lines, copies),
    ...stylePairs(styled),
    ...driftedFlags(
      units.filter((u) => shared.has(u.path)),
      scopeOf,
    ),
    ...staleLayouts(units, scopeOf),
    ...frequencyPairs(frequent),
  ];
}

/** A name in code as a rule writes it: `runInTempDir()`, `errors.AsType`; not a word, a path or a command. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;

/** A file name, not an identifier: `extension.ts`, `wrangler.jsonc`. */
const FILE_LIKE = /\.(?:[jt]sx?|[cm][jt]s|jsonc?|ya?ml|toml|md|mdx|py|go|rs|rb|php|cs|java|kt|swift|sh|lock|txt|html|css|scss)$/i;

function editDistanceOne(a: string, b: string): number | null {
  // The index of the one edit (a substitution, an insertion or a deletion), or null.
  if (Math.abs(a.length - b.length) > 1 || a === b) return null;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const [ra, rb] = [a.slice(i + (a.length >= b.length ? 1 : 0)), b.slice(i + (b.length >= a.length ? 1 : 0))];
  return ra === rb ? i : null;
}

/**
 * One helper named two ways: code identifiers of 8 characters or more, one edit apart (not at the
 * first character, not a digit, a case or a plural), in lines whose scopes meet.
 */
function driftedNames(lines: Line[]): Drifted[] {
  const uses = new Map<string, Line[]>();
  for (const l of lines) {
    if (!l.text.includes('`')) continue;
    for (const m of l.text.matchAll(/`([^`\s]+)`/g)) {
      const id = m[1]!.replace(/\(\)$/, '');
      if (id.length >= 8 && IDENTIFIER.test(m[1]!) && /[a-z]/.test(id) && /[A-Z._]/.test(id.slice(1))) pushTo(uses, id, l);
    }
  }
  // Every name and its forms with one character deleted: two names one edit apart share one of them.
  const index = new Map<string, string[]>();
  for (const id of uses.keys()) {
    pushTo(index, id, id);
    for (let i = 0; i < id.length; i++) pushTo(index, id.slice(0, i) + id.slice(i + 1), id);
  }
  const out: Drifted[] = [];
  const seen = new Set<string>();
  for (const ids of index.values()) {
    for (let x = 0; x < ids.length; x++) {
      for (let y = x + 1; y < ids.length; y++) {
        const [a, b] = [ids[x]!, ids[y]!].sort();
        const pairKey = `${a}\0${b}`;
        if (seen.has(pairKey)) continue;
        seen.add(pairKey);
        const at0 = editDistanceOne(a!, b!);
        // An edit at the start of a part ("Lock" / "RLock") names another thing; so does another file extension.
        // A letter changed (`__getstate__` / `__setstate__`, `pdt` / `zdt`) names another thing; a letter left out is a slip.
        if (at0 === null || at0 === 0 || a!.length === b!.length || /[._]/.test(a![at0 - 1]!) || /[._]/.test(b![at0 - 1]!)) continue;
        if (FILE_LIKE.test(a!) || FILE_LIKE.test(b!)) continue;
        const changed = (a!.length > b!.length ? a![at0] : b![at0]) ?? '';
        if (/\d/.test(changed) || a!.toLowerCase() === b!.toLowerCase()) continue;
        if (`${a}s` === b || `${b}s` === a) continue;
        const la = uses.get(a!)!;
        const lb = uses.get(b!)!;
        // A line that names both knows they are two things.
        if (la.some((l) => lb.includes(l))) continue;
        if (!la.some((p) => lb.some((q) => meet(p, q) && p.path !== q.path))) continue;
        out.push(problem('drifted-name', `${a} or ${b}`, `one name written two ways, \`${a}\` vs \`${b}\``, [la, lb]));
      }
    }
  }
  return out;
}

/**
 * One command run on a path in two files, a flag always given in one and never in the other
 * (`playwright test <file> --project=default` vs `playwright test tests/request/`): worth a second look,
 * the flag may be required or a habit. A file that runs the command both ways is left alone.
 */
function driftedFlags(units: Unit[], scopeOf: (u: Unit) => Scope): Drifted[] {
  // Per command (tool and subcommand) and file: its runs on a path, with their flags.
  const runs = new Map<string, Map<string, { l: Line; flags: Set<string> }[]>>();
  for (const u of units) {
    if (u.kind !== 'code') continue;
    for (const c of codeCommands(u.lines)) {
      const words = c.command.split(' ');
      if (words.length < 3 || !/^[a-z][\w-]*$/.test(words[1]!)) continue;
      // After a lone `--` the words are the program's it runs (`cargo run -p x -- --filter a/b`), not this command's.
      const end = words.indexOf('--');
      const args = words.slice(2, end < 0 ? undefined : end);
      if (!args.some((a) => !a.startsWith('-') && /[/.]/.test(a) && !/^["']/.test(a))) continue;
      const flags = new Set(args.filter((a) => /^--[a-z]/.test(a)).map((a) => a.split('=')[0]!));
      const l: Line = {
        path: u.path,
        line: u.line + c.offset,
        text: u.lines[c.offset]!,
        scope: scopeOf(u),
        section: '',
        unit: u.line,
      };
      const byFile = runs.get(`${words[0]} ${words[1]}`) ?? new Map<string, { l: Line; flags: Set<string> }[]>();
      pushTo(byFile, u.path, { l, flags });
      runs.set(`${words[0]} ${words[1]}`, byFile);
    }
  }
  const out: Drifted[] = [];
  for (const [command, byFile] of runs) {
    if (byFile.size < 2) continue;
    const files = [...byFile.entries()];
    // Flags every run of a file gives.
    const always = new Map(files.map(([p, rs]) => [p, [...rs[0]!.flags].filter((f) => rs.every((r) => r.flags.has(f)))]));
    for (const [pa, ra] of files) {
      for (const flag of always.get(pa)!) {
        for (const [pb, rb] of files) {
          if (pb === pa || rb.some((r) => r.flags.has(flag))) continue;
          // Each file's runs carry a flag of their own the other's never do: two jobs of one command, not one habit.
          if (always.get(pb)!.some((f) => !ra.some((r) => r.flags.has(f)))) continue;
          if (!ra.some((x) => rb.some((y) => meet(x.l, y.l)))) continue;
          out.push(
            problem('drifted-flag', `${command} ${flag}`, `\`${flag}\` on every run in one file, on none in the other`, [
              ra.map((r) => r.l),
              rb.map((r) => r.l),
            ]),
          );
        }
      }
    }
  }
  return out;
}

/** A leading bold label: "- **Flat package structure** — ..." → "flat package structure". */
const labelOf = (t: string) =>
  /^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*|__)([^*_]{1,60})(?:\*\*|__)/.exec(t)?.[1]!.trim().toLowerCase().replace(/:$/, '');
const words = (t: string) => new Set(t.toLowerCase().match(/[a-z0-9]+/g) ?? []);

/**
 * A copied file (CLAUDE.md written from AGENTS.md) whose labelled line under the same heading was
 * edited in one copy only: worth a second look, the edit may be a correction or a rewording.
 */
function driftedLabels(lines: Line[], copies: readonly { path: string; keptPath: string }[]): Drifted[] {
  if (copies.length === 0) return [];
  const byPath = new Map<string, Line[]>();
  for (const l of lines) pushTo(byPath, l.path, l);
  const out: Drifted[] = [];
  for (const c of copies) {
    const kept = new Map<string, Line>();
    for (const l of byPath.get(c.keptPath) ?? []) {
      const label = labelOf(l.text);
      if (label) kept.set(`${l.section}\0${label}`, l);
    }
    for (const l of byPath.get(c.path) ?? []) {
      const label = labelOf(l.text);
      const k = label ? kept.get(`${l.section}\0${label}`) : undefined;
      if (!k || k.text.trim() === l.text.trim()) continue;
      const [wa, wb] = [words(k.text), words(l.text)];
      const shared = [...wa].filter((w) => wb.has(w)).length;
      if (shared / Math.max(wa.size, wb.size) > 0.9) continue; // a reworded line, not a changed one
      out.push(problem('drifted-line', label!, `a copied line edited in one copy`, [[k], [l]]));
    }
  }
  return out;
}

/**
 * The two poles of a style choice, as data: a rule on each side, in lines whose scopes meet. Each pole
 * is a test of the line; a line that is an example or a catalogue rarely says these words.
 */
export const STYLE_POLES: readonly { id: string; title: string; a: RegExp; b: RegExp; both?: RegExp }[] = [
  {
    id: 'comments',
    title: 'how many comments',
    both: /\b(?:comments?|jsdoc|godoc|docstrings?)\b/i,
    a: /\b(?:every|each|all)\s+(?:exported\s+|public\s+)?(?:functions?|methods?|types?)\b|\bmust\s+have\s+(?:\w+\s+)?(?:comments?|jsdoc|godoc|docstrings?)\b/i,
    b: /\bsparingly\b|\bto a minimum\b|\b(?:don'?t|do not|never)\s+add\s+comments\b|\b(?:restate|paraphrase)s?\b/i,
  },
  {
    id: 'types-interfaces',
    title: 'type aliases or interfaces',
    a: /\bprefer\s+(?:`?type`?\s+aliases|types)\s+(?:over|to)\s+interfaces\b/i,
    b: /\bprefer\s+interfaces\b|\b(?:use|define)\s+(?:an?\s+)?interfaces?\s+for\s+(?:every|all|each)\b/i,
  },
  {
    id: 'merge-rebase',
    title: 'merge or rebase',
    a: /\b(?:always|prefer(?:\s+to)?)\s+rebase\b|\brebase\s+instead\s+of\s+merg/i,
    b: /\b(?:never|don'?t|do not)\s+rebase\b|\bmerge\s+instead\s+of\s+rebas|\bprefer\s+merge\s+commits\b/i,
  },
  {
    id: 'braces',
    title: 'braces on one-line ifs',
    a: /\balways\s+(?:use\s+)?(?:curly\s+)?braces?\b|\bnever\s+(?:write\s+)?one-line\s+`?if/i,
    b: /\b(?:omit|without|no)\s+(?:the\s+)?(?:curly\s+)?braces\b|\bbrace-?less\b/i,
  },
];

/** Any word a style pole needs: a line without one is on no pole. */
const STYLE_WORDS = /comment|jsdoc|godoc|docstring|interface|rebase|merg|brace/i;

/** Lines on the two poles of a style choice, in different units whose scopes meet: worth a second look. */
function stylePairs(lines: Line[]): Drifted[] {
  const out: Drifted[] = [];
  for (const pole of STYLE_POLES) {
    const on = (re: RegExp) => lines.filter((l) => (!pole.both || pole.both.test(l.text)) && re.test(l.text));
    const a = on(pole.a);
    const b = on(pole.b).filter((l) => !a.includes(l));
    for (const x of a) {
      const others = b.filter((y) => (y.path !== x.path || y.unit !== x.unit) && meet(x, y));
      if (others.length > 0) out.push(problem('style-pair', pole.title, 'two sides of one style choice', [[x], others]));
    }
  }
  return out;
}
