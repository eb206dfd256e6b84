/**
 * What a line is about, read from its shape and never from a list of names: the code spans, bold
 * values, identifiers, paths, flags and version-bearing names it holds (its values: what fills a
 * slot), and its words. Weighing them is the repository's business (second-looks.ts: rarer terms
 * weigh more).
 */
export interface LineTerms {
  /** Lower-cased words and values, each once: the line's subject terms (an array: thousands of lines are read). */
  terms: readonly string[];
  /** Values as written, lower-cased, each with the words just before and after it (its frame). */
  values: Value[];
  /** The terms a negation governs (the words after "never", "not", "no", up to the clause's end; the whole line after a mark of a wrong way). */
  negated: ReadonlySet<string>;
  /** The terms a rule names as its exception ("except in `scripts/`", "unless ..."): a line about them is the exception. */
  excepted: ReadonlySet<string>;
  /** Negated values the rule narrows ("never run `x` with file arguments"): it forbids a narrower use, not the value. */
  narrowed: ReadonlySet<string>;
  /** Hedged ("when possible", "if needed", "for edge cases"): a clause that narrows it. */
  hedged: boolean;
  /** It lists alternatives (three values or more in a row): a catalogue, not a choice. */
  catalogue: boolean;
  /** A line of code, not prose. */
  code: boolean;
  /** An entry of a glossary or index (`` `x` - what x is ``): it names a value, it does nothing with it. */
  entry: boolean;
  /** Capitalised words inside a sentence (after a lower-case word), lower-cased: names of things ("remove a Widget dependency"). */
  names: ReadonlySet<string>;
}

export interface Value {
  text: string;
  /** As written, its case kept: two values alike but for case are two names (`SKILL.md`, `skill.md`). */
  written: string;
  /** The word before and the word after it in the line (lower-cased, '' for none). */
  before: string;
  after: string;
  /** Written as code (a line of a code block, a code span): a command may run it, not a bold label or a word's shape. */
  command: boolean;
}

/**
 * A pattern made on first use. A `\p{…}` class is built when its pattern is made (0.1 to 0.3 ms
 * each, about 2 ms for this module's at every start), and an analysis that reads no line here, or
 * only ASCII lines, needs few of them or none.
 */
function lazy(make: () => RegExp): () => RegExp {
  let made: RegExp | undefined;
  return () => (made ??= make());
}

const SPAN = /`([^`\n]+)`|\*\*([^*\n]+)\*\*/g;
const WORD = lazy(() => /[\p{L}\p{N}_@./:+#-]+/gu);
// The same two readings for a line of ASCII text, several times faster than their Unicode forms.
const ASCII = /^[\t -~]*$/;
const WORD_ASCII = /[\w@./:+#-]+/g;
const VALUE_SHAPE_ASCII = /\/|^--?[A-Za-z]|[A-Za-z]\.[A-Za-z]|_|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]/;
/** Shapes of a value outside code spans: a path, a flag, a dotted or snake or camel name, letters with digits. */
const VALUE_SHAPE = lazy(() => /\/|^--?\p{L}|\p{L}\.\p{L}|_|\p{Ll}\p{Lu}|\p{L}\p{N}|\p{N}\p{L}/u);
/** A capitalised name followed by a version number ("Laravel 12", "Python 3.12"). */
// A plain number before a word counts things ("Use 2 spaces"): a version is dotted, or stands alone.
const DOTTED_VERSION = lazy(() => /(?<![\p{L}\p{N}.])(\p{L}[\p{L}\p{N}+#/_-]*)\s*(?:[-:@]\s*)?v?(\d+(?:\.\d+)+)(?![\p{L}\p{N}])/gu);
const NAMED_VERSION = lazy(() => /\b(\p{Lu}[\p{L}.+#-]*)\s+v?(\d+(?:\.\d+)+|\d+(?!\.?\d|\s+\p{Ll}))\b/gu);
// Grammar and marks, not names: what turns a line around or narrows it.
// Not inside a hyphenated word: `--no-deps` is a flag, not a negation.
// "avoids" describes what something does ("the arena avoids a copy"); "avoid" and "avoiding" tell.
// What retires a thing turns it down too: "replaces the original `x.sh`", "`y` is deprecated".
const NEGATION = /(?<![\w-])(?:never|not|no|avoid(?:ing)?|without|instead of|replaces|supersedes|deprecated|obsolete)(?![\w-])|n't\b/gi;
/** "Prefer X over Y": what comes after "over" is turned down, like after "instead of". */
const PREFER = /\bprefer/i;
const NEGATION_OR_OVER = new RegExp(`${NEGATION.source}|(?<![\\w-])over(?![\\w-])`, 'gi');
/** A mark at the start of a line that shows a wrong way ("❌ Wrong:", "Bad:"): the whole line is negated. */
export const WRONG_WAY = /^\s*(?:[-*]\s+|\/\/\s*|#\s*)?(?:\u274c|\u{1f6ab}|\u26d4|\u2717|\*{0,2}(?:wrong|bad|incorrect|don'?t)\b)/iu;
/** How far a negation reaches: to the end of its clause, and at most this many words. */
const NEGATION_REACH = 8;
const CONDITION = lazy(() => /(?:^|[,;(]\s*|\s)(?:when|where|if|unless|except)\s+\p{L}+/iu);
const EDGE = /\bfor (?:[a-z]+ )?(?:cases?|situations?)\b|\b(?:sometimes|rarely|occasionally)\b/i;
/** A line that starts with a value and says what it is: `` - `x` - the root build ``, `| `x` | ... |`, `**x**: ...`. */
// A bold sentence ("**Keys are UPPER_CASE** (...)") is a rule, not a name: at most three bold words.
const ENTRY = /^\s*(?:[-*+]\s+|\d+[.)]\s+|\|\s*)?(?:`[^`\n]+`|\*\*[^*\s]+(?:\s[^*\s]+){0,2}\*\*)\s*(?:[-\u2013\u2014:|]|\(|$)/;
/** A label ending in a colon ("**Default Branch**:", "Build:"): what follows is its value. */
const LABEL_END = /:\s*$/;

/** A capitalised word after a lower-case one in the same sentence: a name, not the sentence's first word. */
const NAME_IN_SENTENCE = lazy(() => /(?<=\p{Ll}[\p{L}']*[ \t]+)\p{Lu}[\p{L}\p{N}]+/gu);

/** Where one command of a chain ends and the next begins. */
const CHAIN = /\s*(?:&&|\|\||;|\s\|)\s+/;

/** One set reused for every line's terms while it is read (lines are read by the thousand). */
const SCRATCH = new Set<string>();
const NONE: ReadonlySet<string> = new Set();

const trimWord = (w: string) => w.replace(/^[.:/#+-]+|[.:,;]+$/g, '');

const PLACEHOLDER = /<[^<>\s]+>|\{[^{}\s]+\}|\[[^[\]\s]+\]/g;

/** A value as compared: lower-cased, without a leading `./` or link prefix or a trailing slash or colon. */
export const normalValue = (v: string): string => writtenValue(v).toLowerCase();

/** A value as written (its case kept), otherwise as `normalValue` reads it: `SKILL.md` and `skill.md` name two files. */
const writtenValue = (v: string): string =>
  v
    .trim()
    // A placeholder stands for any value: `show <id>` and `show <subtaskId>` are one command.
    .replace(PLACEHOLDER, '<>')
    // A link's prefix (`mdc:docs/x.md`), not a key before its value (`mode: 'x'`).
    .replace(/^(?:\.\/|[a-z]+:(?![/\s]))/i, '')
    .replace(/[/:.]+$/, '');

const wordsOf = (s: string): string[] =>
  (s.toLowerCase().match(/[\p{L}\p{N}_-]+/gu) ?? []).filter((w) => w.length >= 3 && !/^\d+$/.test(w));

/** A comment line in a code block (`# build first`, `// then run`): prose, not a command. */
const COMMENT = /^\s*(?:#(?!!)|\/\/|<!--|--\s)\s*/;
/** A Markdown link's target (`](mdc:docs/x.md)`): where the link goes, a value, not words of what the line says. */
const LINK_TARGET = /\]\(([^)\s]*)\)/g;
/** A target that is a path in the repository, not a web address or an anchor. */
const PATH_TARGET = /^(?![a-z][a-z0-9+.-]*:\/\/|#|mailto:)./i;

/** A sentence inside a code block (a docstring, a message: `"""Send a message."""`, `user: The user to greet.`): prose, not a command. */
const SENTENCE_IN_CODE = /^\s*(?:"{3}|'{3}|[\w.]+:\s)?\s*[A-Za-z][a-z']*(?:,?\s+[A-Za-z][a-z'/-]*){3,}[^\n]*[.!?]["'`]*\s*$/;

export function lineTerms(raw: string, codeLine: boolean, wrong = false): LineTerms {
  const comment = codeLine && (COMMENT.test(raw) || SENTENCE_IN_CODE.test(raw));
  const code = codeLine && !comment;
  const unlinked = comment ? raw.replace(COMMENT, '') : raw;
  const text = unlinked.includes('](') ? unlinked.replace(LINK_TARGET, ']') : unlinked;
  const terms = SCRATCH;
  terms.clear();
  const values: Value[] = [];
  const addValue = (v: string, before = '', after = '', command = false) => {
    // A chain of commands (`x build && x test`) is several commands, each its own value.
    const chained = v.includes('&&') || v.includes('||') || v.includes('; ') || v.includes(' | ') ? v.split(CHAIN) : null;
    if (chained && chained.length > 1) {
      for (const part of chained) if (part.trim() !== '') addValue(part, before, after, command);
      return;
    }
    const written = writtenValue(v);
    const value = written.toLowerCase();
    // Punctuation alone (`&&`, `=>`) names nothing.
    if (value.length < 2 || !/[\p{L}\p{N}]/u.test(value) || values.some((x) => x.text === value)) return;
    values.push({ text: value, written, before, after, command });
    terms.add(value);
  };
  if (text !== unlinked) for (const m of unlinked.matchAll(LINK_TARGET)) if (PATH_TARGET.test(m[1]!)) addValue(m[1]!.replace(/#.*$/, ''));
  const rest = code ? (readCommand(text, addValue), text) : readSpans(text, terms, addValue);
  const ascii = ASCII.test(text);
  const shape = ascii ? VALUE_SHAPE_ASCII : VALUE_SHAPE();
  for (const raw of (code ? text : rest).matchAll(ascii ? WORD_ASCII : WORD())) {
    const w = trimWord(raw[0]);
    if (w === '' || /^\d+(?:\.\d+)*$/.test(w)) continue;
    if (!code && shape.test(w) && !/^https?:/.test(w)) addValue(w);
    const lower = w.toLowerCase();
    if (lower.length >= 3) terms.add(lower);
  }
  // The words inside values count too: `pnpm test` speaks of pnpm.
  for (const v of values) for (const t of valueTokens(v.text)) if (t.length >= 3) terms.add(t);
  const negated = wrong ? new Set(terms) : negatedTerms(text, terms, values);
  const excepted = EXCEPT.test(text) ? exceptedTerms(text, terms) : NONE;
  const narrowed = negated.size > 0 && !code ? narrowedValues(text, values, negated) : NONE;
  const list = [...terms];
  terms.clear();
  return {
    terms: list,
    values,
    negated,
    excepted,
    narrowed,
    hedged: !code && (CONDITION().test(rest) || EDGE.test(rest)),
    catalogue: !code && isCatalogue(text),
    code,
    entry: !code && ENTRY.test(text),
    names: code ? NONE : new Set([...text.replace(/[*_]+/g, '').matchAll(NAME_IN_SENTENCE())].map((m) => m[0].toLowerCase())),
  };
}

type AddValue = (v: string, before?: string, after?: string, command?: boolean) => void;

/** A line of code: its command, and in a listing or a tree the name it gives first. */
function readCommand(text: string, addValue: AddValue): void {
  // A comment after the command is not part of it (`just ready   # before committing`).
  const command = text
    .trim()
    .replace(/^[$>]\s+/, '')
    .replace(/\s+#.*$/, '');
  // A long command is still one value: its first words say what it runs (a path at its end may be long).
  addValue(command.length <= 160 ? command : command.slice(0, 160), '', '', true);
  // A line of a listing or a tree names its thing first (`store-lite   the storage crate`): a name of its own.
  const first = /^[\s\u2500-\u257f|*+-]*([\p{L}\p{N}@][\p{L}\p{N}_./@-]*[-_./][\p{L}\p{N}_./@-]*[\p{L}\p{N}])\s/u.exec(command)?.[1];
  if (first && command.length > first.length) addValue(first);
}

/** A line of prose: its code spans and short bold values, and named versions; returns the prose left to read word by word. */
function readSpans(text: string, terms: Set<string>, addValue: AddValue): string {
  for (const m of text.matchAll(SPAN)) {
    const inner = (m[1] ?? m[2])!;
    // A bold label ("**Build**:") names a slot; its value follows.
    if (m[2] !== undefined && LABEL_END.test(text.slice(m.index + m[0].length, m.index + m[0].length + 2))) {
      for (const w of wordsOf(inner)) terms.add(w);
      continue;
    }
    if (m[2] !== undefined && inner.split(/\s+/).length > 3) {
      // A bold sentence is words, and the code spans inside it values (**Never `x push` by hand.**).
      for (const w of wordsOf(inner)) terms.add(w);
      for (const c of inner.matchAll(/`([^`\n]+)`/g)) addValue(c[1]!, '', '', true);
      continue;
    }
    const before = wordsOf(text.slice(0, m.index)).pop() ?? '';
    const after = wordsOf(text.slice(m.index + m[0].length))[0] ?? '';
    addValue(inner, before, after, m[1] !== undefined);
  }
  // A bold sentence stays prose: its words of a value's shape are values (**Keys are UPPER_CASE**).
  const rest = text.replace(SPAN, (_all, _code?: string, bold?: string) =>
    bold !== undefined && bold.split(/\s+/).length > 3 ? ` ${bold.replace(/`[^`]*`/g, ' ')} ` : ' ',
  );
  if (/\d/.test(rest)) for (const m of rest.matchAll(NAMED_VERSION())) addValue(`${m[1]} ${m[2]}`);
  // A dotted number after a name of any case is its version (`- tool - 8.5.2`, `runtime: 20.1`).
  if (/\d\.\d/.test(rest)) for (const m of rest.matchAll(DOTTED_VERSION())) addValue(`${m[1]} ${m[2]}`);
  return rest;
}

/**
 * Whether reading the line could find a value or a negation in it (lineTerms): a code line, a line
 * shown as the wrong way, or one with a code span, bold, a link, a value's shape, a named version or a
 * negation. A cheap test read before any word: most lines of long prose have none of them.
 */
export const mayMark = (l: { text: string; code: boolean; wrong: boolean }): boolean =>
  l.code ||
  l.wrong ||
  (ASCII.test(l.text)
    ? MAY_MARK_ASCII.test(l.text) || MAY_MARK_CASED_ASCII.test(l.text)
    : MAY_MARK().test(l.text) || MAY_MARK_CASED().test(l.text) || WRONG_WAY.test(l.text));
// The same tests for a line of ASCII text (most lines), several times faster than their Unicode forms.
const MAY_MARK_ASCII =
  /[`/_]|\*\*|\]\(|(?:^|\s)--?[a-z]|[a-z]\.[a-z]|[a-z]\d|\d[a-z]|\d\.\d|\b(?:never|not|no|avoid\w*|without|instead|prefer\w*|replaces|supersedes|deprecated|obsolete|wrong|bad|incorrect)\b|n't/i;
const MAY_MARK_CASED_ASCII = /[a-z][A-Z]|[A-Z][A-Za-z.+#-]*\s+v?(?:\d+\.\d|\d+(?!\.?\d|\s+[a-z]))/;
const MAY_MARK = lazy(
  () =>
    /[`/_]|\*\*|\]\(|(?:^|\s)--?\p{L}|\p{L}\.\p{L}|\p{L}\p{N}|\p{N}\p{L}|\d\.\d|\b(?:never|not|no|avoid\w*|without|instead|prefer\w*|replaces|supersedes|deprecated|obsolete)\b|n't/iu,
);
/** Case matters here: a camel name, a capitalised name before a number. */
const MAY_MARK_CASED = lazy(() => /\p{Ll}\p{Lu}|\p{Lu}[\p{L}.+#-]*\s+v?(?:\d+\.\d|\d+(?!\.?\d|\s+\p{Ll}))/u);

/** A value's words: split at spaces and punctuation. */
export const valueTokens = (v: string): string[] => v.split(/[^\p{L}\p{N}]+/u).filter((t) => t !== '');

/** Three or more code spans in a row, joined by commas, slashes or "or"/"and": a list of what is supported. */
function isCatalogue(text: string): boolean {
  const list = /`[^`\n]+`(?:\s*(?:,|\/|\bor\b|\band\b|,\s*(?:or|and))\s*`[^`\n]+`){2,}/.exec(text);
  // Examples of one choice ("For example: `a`, `b`, `c`") show it; they offer no alternatives.
  return list !== null && !EXAMPLES.test(text.slice(Math.max(0, list.index - 16), list.index));
}
const EXAMPLES = /\b(?:for example|for instance|e\.g\.|such as|like)[:,]?\s*$/i;

/** Where a clause ends: a stop or colon before a space (not the dot of `build.gradle.kts`), a dash, a bracket, a comma. */
/** Where a clause gives way to a condition or a reason ("needs no change when ..."). */
const SUBORDINATE = /\s(?:when|if|unless|because|since|as|after|before|while|once)\s/i;
/** Grammar that names a rule's exception. */
const EXCEPT = /\b(?:except|unless|other than|apart from|outside of)\b/i;
/** A value followed, in its clause, by words that narrow it ("`x` with file arguments", "`x` in production"). */
const NARROWING = /^[\s`*]*(?:with|without|unless|in|on|for|inside|outside|during|against|via|under|when)\s+\S/i;

/** The terms of the clause after an exception word. */
function exceptedTerms(text: string, terms: ReadonlySet<string>): ReadonlySet<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(new RegExp(EXCEPT.source, 'gi'))) {
    const clause = text
      .slice(m.index + m[0].length)
      .split(CLAUSE_END)[0]!
      .toLowerCase();
    for (const t of terms) if (clause.includes(t)) out.add(t);
  }
  return out;
}

/** Negated values followed in their clause by words that narrow them. */
function narrowedValues(text: string, values: readonly Value[], negated: ReadonlySet<string>): ReadonlySet<string> {
  const out = new Set<string>();
  const lower = text.toLowerCase();
  for (const v of values) {
    if (!negated.has(v.text)) continue;
    const at = lower.indexOf(v.text);
    if (at >= 0 && NARROWING.test(lower.slice(at + v.text.length).split(CLAUSE_END)[0]!)) out.add(v.text);
  }
  return out;
}

const CLAUSE_END = /[.;:!?](?=\s|$)|[\u2014()]|,\s|\s-\s/;

/** The line's terms a negation governs: words after a negation up to the clause's end, or all after a wrong-way mark. */
function negatedTerms(text: string, terms: ReadonlySet<string>, values: readonly Value[]): ReadonlySet<string> {
  // A one-word code span is negated when the span itself is in the clause: "never `x y` — use `x`" turns `x y`, not `x`.
  const spans = new Set(
    values.filter((v) => !/[^\p{L}\p{N}_-]/u.test(v.text) && text.toLowerCase().includes(`\`${v.text}\``)).map((v) => v.text),
  );
  const governed: string[] = [];
  if (WRONG_WAY.test(text)) governed.push(text);
  else
    for (const m of text.matchAll(PREFER.test(text) ? NEGATION_OR_OVER : NEGATION)) {
      const clause = text.slice(m.index + m[0].length).split(CLAUSE_END)[0]!;
      // A negation ending its clause ("... need no change", "... is not needed") turns what came before it.
      if (clause.trim().split(SUBORDINATE)[0]!.trim().split(/\s+/).length <= 1)
        governed.push(text.slice(0, m.index).split(CLAUSE_END).pop()!);
      governed.push(
        clause
          .split(/\s+/)
          .slice(0, NEGATION_REACH + 1)
          .join(' '),
      );
    }
  if (governed.length === 0) return NONE;
  const out = new Set<string>();
  for (const g of governed) {
    // Placeholders as values hold them (`<Name>.js` is read `<>.js`).
    const lower = g.toLowerCase().replace(PLACEHOLDER, '<>');
    const words = new Set((lower.match(WORD()) ?? []).map(trimWord));
    for (const t of terms)
      if (spans.has(t) ? lower.includes(`\`${t}\``) : words.has(t) || (/[^\p{L}\p{N}]/u.test(t) && lower.includes(t))) out.add(t);
  }
  return out;
}
