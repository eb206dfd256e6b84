/** Lines shorter than this are too generic to call a repetition ("---", "Notes:"). */
const MIN_REPEATED_LINE = 12;
/** A line of at most this many words that ends with a colon, or is all bold, is a label. */
const MAX_LABEL_WORDS = 6;

export const stripMarker = (l: string): string => l.replace(/^([-*+]|\d+[.)])\s+/, '');

/**
 * Too little to be a rule: short lines, lines without words (table rules), and labels. Such text is
 * never reported as repeated.
 */
export function isTrivial(text: string): boolean {
  return text.length < MIN_REPEATED_LINE || !hasTwoWords(text) || isLabel(text);
}

/** Two letters in a row, then whitespace, then two letters in a row: two words at least. */
const TWO_WORDS = /\p{L}{2,}.*\s.*\p{L}{2,}/su;
// The same for ASCII letters, several times faster than the Unicode form: a line it finds two words
// in has them in either reading; only a line with other letters needs the Unicode one.
const TWO_WORDS_ASCII = /[A-Za-z]{2}[^]*?\s[^]*?[A-Za-z]{2}/;
const NOT_PRINTABLE_ASCII = /[^\t -~]/;

export function hasTwoWords(text: string): boolean {
  return TWO_WORDS_ASCII.test(text) || (NOT_PRINTABLE_ASCII.test(text) && TWO_WORDS.test(text));
}

/**
 * A label that only introduces what follows ("**Example:**", "When reviewing pull requests:") or a
 * short table header ("| Status | Option ID |"). Each copy belongs where it stands, so the plan never
 * merges one away, however often it repeats.
 */
export function isLabel(text: string): boolean {
  if (text.startsWith('|') && text.replace(/[|:-]/g, ' ').trim().split(/\s+/).length <= MAX_LABEL_WORDS) return true;
  if (text.includes('\n') || !endsLikeLabel(text)) return false;
  const bare = stripMarker(text).replace(/[*_`]/g, '').trim();
  // The words are counted last: most lines end otherwise and are not bold.
  return (bare.endsWith(':') || /^(\*\*|__)[^*_]+(\*\*|__)$/.test(stripMarker(text))) && bare.split(/\s+/).length <= MAX_LABEL_WORDS;
}

/**
 * Whether a line ends as a label can: bold (`**`, `__`), or with a colon once markup and spaces are
 * gone. Most lines do not, and need no copy without their marker and markup to say so.
 */
function endsLikeLabel(text: string): boolean {
  if (text.endsWith('**') || text.endsWith('__')) return true;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    // Markup and ASCII spaces are what trimming and unmarking drop; any other character ends the line, and past ASCII, the long way decides.
    if (c === 42 || c === 95 || c === 96 || c === 32 || (c >= 9 && c <= 13)) continue;
    return c === 58 || c >= 128;
  }
  return false;
}
