import { valueTokens, type LineTerms } from './terms.js';

/** A word before a command that means it as written only ("never run bare `x`"): `x --check` is not it. */
const BARE = /^(?:bare|plain|naked)$/;

/**
 * How strongly one line says not to do what the other does (0: not at all): a term both name,
 * negated in one, and a value or a command's word in the other, the line that does it (`blorp sync`
 * in a code example against "never blorp"); the verb around it turns with every rule. Rarer terms
 * weigh more: a common word negated somewhere says little.
 */
export function flipped(
  ra: LineTerms,
  rb: LineTerms,
  bTerms: ReadonlySet<string>,
  weight: ReadonlyMap<string, number>,
  top: number,
): { strength: number; against: 'a' | 'b' } {
  const best: { strength: number; against: 'a' | 'b' } = { strength: 0, against: 'a' };
  // A term both lines hold, negated in one; or a name the rule negates that the other line holds in a path.
  const candidates = [
    ...ra.terms.filter((t) => bTerms.has(t)),
    ...[...ra.negated, ...rb.negated].filter((t) => !bTerms.has(t) || !ra.terms.includes(t)),
  ];
  for (const t of candidates) {
    // A version alone (`v4`, `12`) names no thing: "not supported in X v4" says nothing of another name's v4.
    if (VERSION_ALONE.test(t)) continue;
    const [no, yes] = ra.negated.has(t) ? [ra, rb] : rb.negated.has(t) ? [rb, ra] : [null, null];
    if (!no || !yes || yes.negated.has(t)) continue;
    const shared = bTerms.has(t) && ra.terms.includes(t);
    if (!((shared && inValue(yes, t)) || (inValue(no, t) && inFolder(yes, t)))) continue;
    // Opposite on one action and one object: the forbidden term is a thing the rule names (a value, a
    // part of one: `x/y`, or a capitalised name) or the program the other line runs (`x fetch y`), or the other line holds a second word of the forbidden clause (the action
    // and its object: "never build with the release profile" / `build --release`). One plain word in
    // common ("must not add a comment" / "add tests") is two actions on two things.
    if (!partOfValue(no, t) && !runsProgram(yes, t) && heldWords(no.negated, yes.terms, weight, top) < 2) continue;
    // The line is the rule's named exception, or the rule forbids only a narrower use of the value.
    if (yes.terms.some((u) => no.excepted.has(u)) || [...no.narrowed].some((v) => v === t || v.split(/\s+/).includes(t))) continue;
    // The line names the rule's own choice too (`pnpm nx build`, `npm exec nx test` against "use `pnpm`; never npm"): examples of both.
    if (no.values.some((v) => !no.negated.has(v.text) && inValue(yes, v.text))) continue;
    // A word of a command the rule names whole ("never run bare `x sync`") turns only that command, not `x sync --check`.
    const pinned = no.values.find((v) => v.text !== t && no.negated.has(v.text) && v.text.split(/\s+/).includes(t));
    if (pinned && !yes.values.some((v) => v.text === pinned.text || (v.text.startsWith(`${pinned.text} `) && !BARE.test(pinned.before))))
      continue;
    // An entry naming the thing (what it is) does nothing with it: a weak mark. A plain word of prose
    // met in a line of code is often another thing of the same name ("does not match" / `match x {`).
    // Both lines say not to, each in its own words ("avoid editing `x`" / "`x` files are never hand-edited"): one rule twice.
    if (yes.negated.size > 0 && forbidOneAction(no.negated, yes.negated, t, weight, top)) continue;
    const strength = Math.min(1, (weight.get(t) ?? 0) / (0.6 * top)) * (yes.entry ? 0.3 : 1) * (yes.code && !inValue(no, t) ? 0.5 : 1);
    if (strength > best.strength) [best.strength, best.against] = [strength, no === ra ? 'a' : 'b'];
  }
  return best;
}

/** The term is a value the line turns down or one of its words or parts (`composer` in `composer/npm`), or a name. */
const partOfValue = (r: LineTerms, t: string): boolean =>
  r.names.has(t) || r.values.some((v) => r.negated.has(v.text) && (v.text === t || valueTokens(v.text).includes(t)));

/** The term is the program a command of the line runs (its first word, the command having more; not a declaration in code: `class X {}`). */
const runsProgram = (r: LineTerms, t: string): boolean =>
  r.values.some((v) => v.command && v.text.startsWith(`${t} `) && !/[{}()=]/.test(v.text));

/** A word's stem for "holds the same word" (`builds` / `build`, `snapshots` / `snapshot`). */
const stem = (t: string) => (t.length > 4 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t);

/** How many words of a negated clause the other line holds (by stem), leaving out the most common words. */
function heldWords(negated: ReadonlySet<string>, terms: readonly string[], weight: ReadonlyMap<string, number>, top: number): number {
  const stems = new Set(terms.map(stem));
  let n = 0;
  for (const t of negated) if ((weight.get(t) ?? 0) >= 0.4 * top && stems.has(stem(t))) n++;
  return n;
}

/** A word's stem with its grammar's endings taken off (`editing`, `edited`, `edits` / `edit`): an action said in two forms. */
const actionStem = (w: string) => w.replace(/(?:ing|ed|es|s)$/, '');

/** The two negations govern one action: a word of four letters or more, not common here, in both (by stem; `hand-edit` holds `edit`). */
function forbidOneAction(
  no: ReadonlySet<string>,
  yes: ReadonlySet<string>,
  term: string,
  weight: ReadonlyMap<string, number>,
  top: number,
): boolean {
  const theirs = actionStems(yes, weight, top);
  for (const [stem, word] of actionStems(no, weight, top)) if (word !== term && theirs.has(stem) && theirs.get(stem) !== term) return true;
  return false;
}

/** A negation's words of four letters or more, not common here, by stem (each stem to the word it came from), read once per line. */
const stemsRead = new WeakMap<ReadonlySet<string>, Map<string, string>>();
function actionStems(words: ReadonlySet<string>, weight: ReadonlyMap<string, number>, top: number): Map<string, string> {
  let stems = stemsRead.get(words);
  if (stems) return stems;
  stems = new Map();
  for (const w of words) {
    if ((weight.get(w) ?? top) < 0.4 * top) continue;
    for (const part of w.split(/[-_]/)) {
      const stem = actionStem(part);
      if (stem.length >= 4 && /^\p{L}+$/u.test(part)) stems.set(stem, w);
    }
  }
  stemsRead.set(words, stems);
  return stems;
}

const VERSION_ALONE = /^v?\d+(?:\.\d+)*$/;

/** The term is a value of the line or a whole word of one (a command's word or a flag's name: `--release`), not a piece of a file name. */
export const inValue = (r: LineTerms, t: string): boolean =>
  r.values.some((v) => v.text === t || v.text.split(/\s+/).some((w) => w === t || bareWord(w) === t));
/** A command's word without its quotes, a flag's dashes or its `=value` (`'x'`, `--release`, `--mode=y`). */
const bareWord = (w: string) =>
  w
    .replace(/^['"]+|['",;]+$/g, '')
    .replace(/^--?/, '')
    .replace(/=.*$/, '');

/** The term is a folder of a path the line holds (`generated` in `src/generated/rules.rs`): what is done there is done to it. */
const inFolder = (r: LineTerms, t: string): boolean =>
  r.values.some((v) => {
    if (!v.text.includes('/') || /\s/.test(v.text)) return false;
    const parts = v.text.split('/');
    // A file's name is the file named with its folders too (`x.sh`, `tool/x.sh`); a folder's name, a path through it.
    return /\.\p{L}+$/u.test(t) ? parts.at(-1) === t : (/\.\p{L}+$/u.test(parts.at(-1)!) ? parts.slice(0, -1) : parts).includes(t);
  });
