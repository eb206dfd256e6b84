import {
  anyOf,
  GENERIC_VERSION,
  NEGATION_BEFORE,
  NOT_A_NAME_PART,
  NOT_A_PRODUCT,
  VERSIONED_LANGUAGES,
  VERSION_LIST_AFTER,
  VERSION_MINIMUM_AFTER,
  VERSION_MINIMUM_BEFORE,
} from './topics.js';

/** One stated version of one product; `value` ends with `+` when it is a minimum ("3.10+"). */
export interface VersionClaim {
  key: string;
  name: string;
  value: string;
}

/** A labelled version ("**PHP Version**: 7.2+", "Node version: 20"): the name and its version, as "PHP 7.2+". */
const LABELLED_VERSION = /\b([A-Za-z][\w.+#-]*)\s+versions?\W{0,4}\s*[:=]\s*(?:\*\*|__|`)?\s*(?=v?\d)/gi;
/** What every labelled version holds, for the fast paths: tried where "version" stands, not at every word. */
export const VERSION_LABEL = /\bversions?\W{0,4}\s*[:=]\s*(?:\*\*|__|`)?\s*v?\d/gi;

/**
 * Any of the patterns below, at once, case aside: a line it does not match states no version, and is
 * read no further (most lines). Every pattern's flags are among `g` and `i` (tests/analysis/fast-paths.test.ts).
 */
export const ANY_VERSION = anyOf([...VERSIONED_LANGUAGES.map((l) => l.pattern), GENERIC_VERSION, VERSION_LABEL]);

/** The versions a line states: one per product, ranges and lists of supported versions left out. */
/** What most lines state: one list for all of them, not an empty list per line. */
const NO_VERSIONS: readonly VersionClaim[] = Object.freeze([]);

export function versionClaims(raw: string): readonly VersionClaim[] {
  const text = normalizeRanges(raw).replace(LABELLED_VERSION, '$1 ');
  if (!ANY_VERSION.test(text)) return NO_VERSIONS;
  const out: VersionClaim[] = [];
  for (const lang of VERSIONED_LANGUAGES) {
    for (const m of text.matchAll(lang.pattern)) {
      const before = text.slice(0, m.index);
      if (NEGATION_BEFORE.test(before) || namePrefix(before) !== '') continue;
      const value = reading(before, text.slice(m.index + m[0].length), m[1]!, m[0]);
      if (value) out.push({ key: lang.name, name: lang.name, value });
    }
  }
  for (const m of text.matchAll(GENERIC_VERSION)) {
    const before = text.slice(0, m.index);
    const prefix = namePrefix(before);
    if (prefix === '' && NOT_A_PRODUCT.has(m[1]!.toLowerCase())) continue;
    const name = prefix === '' ? m[1]! : `${prefix} ${m[1]!}`;
    // "before Tailwind CSS v3": the words before the whole name say whether it is a condition.
    const lead = prefix === '' ? before : before.replace(NAME_WORDS_AT_END, '');
    const value = reading(lead, text.slice(m.index + m[0].length), (m[2] ?? m[3])!, name);
    if (value) out.push({ key: name.toLowerCase(), name, value });
  }
  return out;
}

/** What every range below starts with: a line without one has none (most lines), and is not searched for them. */
export const RANGE_MARK = /[>\u2265^~=]/;

/**
 * Ranges written as package managers write them, read as words: `>=3.11` and `^3.11` are minimums
 * ("3.11+"), `~3.11` and `==3.11` are that version.
 */
export function normalizeRanges(text: string): string {
  if (!RANGE_MARK.test(text)) return text;
  return text.replace(/(?:>=|\u2265|\^)\s*v?(\d+(?:\.\d+){0,2})(?:\.[x*])?/g, '$1+').replace(/(?:~=?|==)\s*v?(\d+(?:\.\d+){0,2})/g, '$1');
}

/** The capitalised words at the end of a text: a name's first words. */
const NAME_WORDS_AT_END = /(?:[A-Z][\w+.-]*\s+)+$/;

/** Capitalised words right before a name that belong to it: "Pest" in "Pest PHP 3.8", none in "Use PHP 8.4". */
function namePrefix(before: string): string {
  const words = (NAME_WORDS_AT_END.exec(before)?.[0] ?? '')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  while (words.length > 0 && NOT_A_NAME_PART.has(words[0]!.toLowerCase())) words.shift();
  return words.join(' ');
}

/** Right before a version's name: the version is a condition ("on Python 3.13+", "for Node 18"), not a requirement. */
const CONDITION_BEFORE = /\b(?:since|before|after|below|above|prior to|older than|newer than)\s+$/i;
/** "... conversions on Python 3.13+": a rule for some versions; "runs on Python 3.10+" states the versions supported. */
const ON_SOME_BEFORE = /(?<!\b(?:runs?|running|works?|supported|tested|targets?|built|requires?|is|are))\s+(?:on|under)\s+$/i;
/** Right after a version: it names a style or a feature set ("Python >=3.12 style", "3.12-style syntax"), not the versions supported. */
const STYLE_AFTER = /^\+?\s*-?\s*(?:style|syntax|semantics)\b/i;

/**
 * The version as stated (a minimum ends with `+`), or null: not a requirement. `named` is the name as
 * written; a list goes on with another version of it ("Python 3.10, 3.11"), not with another product's
 * ("PHP 7.4+, WordPress 6.x").
 */
function reading(before: string, after: string, version: string, named: string): string | null {
  const list = VERSION_LIST_AFTER.exec(after);
  const another =
    list?.[1] !== undefined &&
    !named
      .toLowerCase()
      .split(/[\s.]+/)
      .includes(list[1].toLowerCase());
  if ((list && !another) || STYLE_AFTER.test(after) || CONDITION_BEFORE.test(before)) return null;
  const minimum = VERSION_MINIMUM_AFTER.test(after) || VERSION_MINIMUM_BEFORE.test(before);
  if (minimum && ON_SOME_BEFORE.test(before)) return null;
  return minimum ? `${version}+` : version;
}

/**
 * Whether two stated versions can both hold: one is a prefix of the other ("3" and "3.11"; not
 * "3.11" and "3.12", nor "2.1" and "2.17.4"), or an exact version meets a minimum ("3.12" and "3.10+").
 */
export function compatibleVersions(a: string, b: string): boolean {
  const minA = a.endsWith('+');
  const minB = b.endsWith('+');
  const x = minA ? a.slice(0, -1) : a;
  const y = minB ? b.slice(0, -1) : b;
  if (x === y || y.startsWith(`${x}.`) || x.startsWith(`${y}.`)) return true;
  if (minA === minB) return false;
  const [min, exact] = minA ? [x, y] : [y, x];
  return compareVersions(exact, min) >= 0;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
