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

import { eachHidden, hasHidden, type Keep } from './hidden-chars.js';

export { charName } from './char-names.js';
export { hiddenIn, isHidden } from './hidden-chars.js';

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The escape for one character, as a JavaScript string literal writes it. */
export function escapeChar(c: string): string {
  if (SHORT[c]) return SHORT[c];
  const cp = c.codePointAt(0)!;
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/** `text` with each hidden character (show/hidden-chars.ts) written as `escape` writes it; the same string when none is. */
function escapeHidden(text: string, keep: Keep, escape: (c: string) => string): string {
  let out = '';
  let last = 0;
  eachHidden(text, keep, (at, end) => {
    out += text.slice(last, at) + escape(text.slice(at, end));
    last = end;
  });
  return last === 0 ? text : out + text.slice(last);
}

/** Multi-line text: every hidden character escaped except newline and tab; CRLF shown as a line end. */
export function showText(text: string): string {
  return escapeHidden(text.replace(/\r\n/g, '\n'), 'text', escapeChar);
}

/** One line: newlines and tabs escaped too, so the text cannot start a line of its own. */
export function showLine(text: string): string {
  return escapeHidden(text, 'line', escapeChar);
}

/**
 * A path (or a link's target, or any name): as it is when it holds only plain printable characters;
 * otherwise quoted like a JSON string (`"pkg\nCreate x.md"`), with `"` and `\` escaped too. So no
 * name can start a line, and a quoted name cannot be taken for a plain one.
 */
export function showPath(p: string): string {
  if (p !== '' && !hasHidden(p, 'line') && !/["\\]/.test(p) && p.trim() === p) return p;
  // A combining mark after a `"` or `\` of the name has nothing to combine with either: escaped.
  return `"${escapeHidden(
    p.replace(/["\\]/g, (c) => `\\${c}`),
    'line',
    escapeChar,
  )}"`;
}

/** Paths joined for a sentence: `a, "b\nc", d`. */
export function showPaths(paths: readonly string[], separator = ', '): string {
  return paths.map(showPath).join(separator);
}

/**
 * JSON for a terminal: the same value when parsed, with every hidden character written as
 * `\uHHHH` escapes (JSON.stringify already escapes C0 controls, but not DEL, C1, bidi or zero-width).
 */
export function showJson(value: unknown, indent = 2): string {
  const units = (c: string) => {
    let out = '';
    for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  };
  return escapeHidden(JSON.stringify(value, null, indent), 'json', units);
}

/** At most `max` characters (code points, so no surrogate pair is split), with "..." when cut; then shown as one line. */
export function showExcerpt(text: string, max: number): string {
  const chars = [...text];
  return showLine(chars.length > max ? `${chars.slice(0, max - 3).join('')}...` : text);
}
