/**
 * The one way to show untrusted text (file contents, paths, a client's name, a model's words) to a
 * person or a client. Characters that a terminal or a renderer would act on, or that cannot be
 * seen, are shown as the escape a JavaScript string literal would use:
 *
 * - C0 and C1 controls and DEL (ESC is `\x1b`, a lone carriage return `\r`, NUL `\x00`),
 * - format characters: bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C), zero-width
 *   characters (U+200B–U+200D, U+2060, U+FEFF), soft hyphen, tag characters (`\u{e0041}`),
 * - line and paragraph separators (U+2028, U+2029), unpaired surrogates,
 * - unassigned code points (`\p{Cn}`: U+2065, noncharacters) and private-use ones (`\p{Co}`: drawn
 *   as whatever a font on the reader's machine says, a blank or a letter included),
 * - every default-ignorable code point (drawn as nothing: Hangul fillers U+115F, U+1160, U+3164,
 *   U+FFA0, the combining grapheme joiner U+034F, the supplementary variation selectors
 *   U+E0100–U+E01EF...) but the variation selectors U+FE00–U+FE0F and the Mongolian ones, which are
 *   combining marks below,
 * - characters drawn blank that are none of those: U+2800 BRAILLE PATTERN BLANK, U+1D159, U+16FE4,
 * - a combining mark (`\p{M}`) with nothing to combine with: at the start of the text, or after a
 *   space, a newline, a tab, a quote, a backslash or an escaped character (it would join the quote
 *   or the escape before it); so is every mark right after it. After a letter, a digit or an emoji
 *   it is kept: `e` + U+0301, `👍` + U+FE0F, keycaps.
 *
 * Below U+0100 the escape is `\xHH`, in the first plane `\uHHHH`, beyond it `\u{HHHHH}`; `\n`,
 * `\r` and `\t` keep their short names. Multi-line text keeps its newlines and tabs (a CR that
 * ends a line, CRLF, is shown as the line end). Every other character is kept, in order. What is
 * written to a file never passes through here: this is for display only.
 */

/** Escaped wherever they stand, but for the controls (given apart: text keeps newline and tab, JSON newline). */
const ALWAYS_BUT_CONTROLS = '\\p{Cf}\\p{Cs}\\p{Co}\\p{Cn}\\p{Zl}\\p{Zp}\\p{Default_Ignorable_Code_Point}\\u2800\\u{1D159}\\u{16FE4}';
/** Default-ignorable, but combining marks that emoji and Mongolian need after their base: the mark rule decides. */
const MARKS_KEPT_AFTER_A_BASE = '[\\uFE00-\\uFE0F\\u180B-\\u180D\\u180F]';
const alwaysHidden = (controls: string) => `[[${controls}${ALWAYS_BUT_CONTROLS}]--${MARKS_KEPT_AFTER_A_BASE}]`;
/** What a combining mark after it cannot combine with on screen: a space, a quote, a backslash, an escaped character. */
const NO_BASE = `[\\s"'\\x60\\\\${alwaysHidden('\\p{Cc}')}]`;
/**
 * A run of combining marks with no base: at the start, or right after NO_BASE (one character back,
 * so a long run of marks costs no more than its length). In JSON, also after JSON's own escapes.
 */
const LONE_MARKS = `(?:^|(?<=${NO_BASE}))\\p{M}+`;
const JSON_LONE_MARKS = `(?<=\\\\[nrtbf]|\\\\u[0-9a-f]{4})\\p{M}+`;

/** What is escaped, besides newline and tab (those only in single-line text). */
const HIDDEN = new RegExp(`${alwaysHidden('\\p{Cc}')}|${LONE_MARKS}`, 'v');
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gv');
/**
 * HIDDEN without what is kept as it is: newline and tab in multi-line text, newline in JSON
 * (\p{Cc} is exactly U+0000–U+001F and U+007F–U+009F). A long report or JSON then has no match per
 * line to hand back unchanged, which was most of the cost of showing it.
 */
const HIDDEN_IN_TEXT = new RegExp(`${alwaysHidden('\\0-\\x08\\x0B-\\x1F\\x7F-\\x9F')}|${LONE_MARKS}`, 'gv');
const HIDDEN_IN_JSON = new RegExp(`${alwaysHidden('\\0-\\x09\\x0B-\\x1F\\x7F-\\x9F')}|${LONE_MARKS}|${JSON_LONE_MARKS}`, 'gv');

/** A quoted name: its `"` and `\\` are escaped too, and are no base for a combining mark. */
const QUOTED = new RegExp(`["\\\\]|${HIDDEN.source}`, 'gv');

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The escape for one character, as a JavaScript string literal writes it. */
export function escapeChar(c: string): string {
  if (SHORT[c]) return SHORT[c];
  const cp = c.codePointAt(0)!;
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/** Every character of a match escaped: a match is one character, or a run of combining marks with no base. */
function escapeAll(match: string): string {
  if (match.length === 1 || (match.length === 2 && match.codePointAt(0)! > 0xffff)) return escapeChar(match);
  let out = '';
  for (const c of match) out += escapeChar(c);
  return out;
}

/** Whether a character, shown on its own, is escaped (newline and tab included; a combining mark has nothing to combine with there). */
export function isHidden(c: string): boolean {
  return HIDDEN.test(c);
}

/** Multi-line text: every hidden character escaped except newline and tab; CRLF shown as a line end. */
export function showText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(HIDDEN_IN_TEXT, escapeAll);
}

/** One line: newlines and tabs escaped too, so the text cannot start a line of its own. */
export function showLine(text: string): string {
  return text.replace(HIDDEN_ALL, escapeAll);
}

/**
 * A path (or a link's target, or any name): as it is when it holds only plain printable characters;
 * otherwise quoted like a JSON string (`"pkg\nCreate x.md"`), with `"` and `\` escaped too. So no
 * name can start a line, and a quoted name cannot be taken for a plain one.
 */
export function showPath(p: string): string {
  if (p !== '' && !HIDDEN.test(p) && !/["\\]/.test(p) && p.trim() === p) return p;
  // One pass, so that a combining mark after a `"` or `\` of the name is seen next to it.
  return `"${p.replace(QUOTED, (c) => (c === '"' || c === '\\' ? `\\${c}` : escapeAll(c)))}"`;
}

/** Paths joined for a sentence: `a, "b\nc", d`. */
export function showPaths(paths: readonly string[], separator = ', '): string {
  return paths.map(showPath).join(separator);
}

/**
 * JSON for a terminal: the same value when parsed, with every hidden character written as a
 * `\uHHHH` escape (JSON.stringify already escapes C0 controls, but not DEL, C1, bidi or zero-width).
 */
export function showJson(value: unknown, indent = 2): string {
  const units = (m: string) => {
    let out = '';
    for (let i = 0; i < m.length; i++) out += `\\u${m.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  };
  return JSON.stringify(value, null, indent).replace(HIDDEN_IN_JSON, units);
}

/** At most `max` characters (code points, so no surrogate pair is split), with "..." when cut; then shown as one line. */
export function showExcerpt(text: string, max: number): string {
  const chars = [...text];
  return showLine(chars.length > max ? `${chars.slice(0, max - 3).join('')}...` : text);
}

/** What nearly every line holds: one list for all of them, not an empty list per line. */
const NONE_HIDDEN: readonly string[] = Object.freeze([]);

/** The hidden characters in a line of text (a rule), each once, in order of first appearance. */
export function hiddenIn(line: string): readonly string[] {
  if (!HIDDEN.test(line)) return NONE_HIDDEN;
  const found = new Set<string>();
  for (const m of line.matchAll(HIDDEN_ALL)) for (const c of m[0]) if (c !== '\t') found.add(c);
  return [...found];
}

const NAMES: Record<number, string> = {
  0x00: 'NUL',
  0x07: 'BEL (bell)',
  0x08: 'BACKSPACE',
  0x0a: 'LINE FEED',
  0x0d: 'CARRIAGE RETURN (moves back to the start of the line)',
  0x1b: 'ESCAPE (starts a terminal control sequence)',
  0x7f: 'DELETE',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0xad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (byte order mark)',
};

/** What each hidden character is, for the ones NAMES does not name, first match wins. */
const KINDS: [RegExp, string][] = [
  [/\p{Cc}/u, 'control character'],
  [/[\u{E0000}-\u{E007F}]/u, 'tag character (invisible)'],
  [/\p{Cs}/u, 'unpaired surrogate'],
  [/\p{Co}/u, 'private-use character (drawn as the font decides)'],
  [/\p{Cn}/u, 'unassigned code point'],
  // eslint-disable-next-line no-misleading-character-class -- the Hangul fillers are characters of their own here
  [/[\u2800\u{1D159}\u115F\u1160\u3164\uFFA0\u{16FE4}]/u, 'blank-looking character'],
  [/\p{M}/u, 'combining mark with nothing to combine with (joins what is before it)'],
];

/** A hidden character for a person: `U+200B ZERO WIDTH SPACE`, `U+0007 BEL (bell)`, `U+E0041 tag character`. */
export function charName(c: string): string {
  const cp = c.codePointAt(0)!;
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${code} ${NAMES[cp] ?? KINDS.find(([re]) => re.test(c))?.[1] ?? 'invisible character'}`;
}
