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

/** {@link TWO_WORDS}, read in one pass without a regular expression for ASCII text (nearly every line). */
export function hasTwoWords(text: string): boolean {
  // 0: looking for two letters; 1: for whitespace after them; 2: for two letters after that.
  let state = 0;
  let letterBefore = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return TWO_WORDS.test(text);
    if (state === 1) {
      if (c === 32 || (c >= 9 && c <= 13)) state = 2;
      continue;
    }
    const lower = c | 32;
    const letter = lower >= 97 && lower <= 122;
    if (letter && letterBefore) {
      if (state === 2) return true;
      state = 1;
    }
    letterBefore = letter && state !== 1;
  }
  return false;
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
