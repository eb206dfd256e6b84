/** Names of hidden characters for a person, as analyze reports them (show/hidden-chars.ts finds them). */

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
