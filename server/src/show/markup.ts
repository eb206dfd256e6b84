import { showLine, showText } from './untrusted.js';

/**
 * Untrusted text (paths, rule text, a client's name, a model's words) inside Markdown and HTML that
 * the tool writes (a job summary, a pull-request comment, a report page). In Markdown every untrusted
 * string is a code span (one line) or a fenced block (many lines), never prose: inside them nothing is
 * a link, an autolink, HTML, emphasis or a heading, whatever the text holds. Hidden characters are
 * escaped first (show/untrusted.ts), so the text cannot start a line of its own, and a code span in a
 * table escapes `|`, the one character GFM reads in a cell before the span. In HTML every untrusted
 * string is a text node or an attribute value, with `& < > " '` as entities.
 */

/** The longest run of `c` in `text`. */
function longestRun(text: string, c: string): number {
  let longest = 0;
  let run = 0;
  for (const ch of text) {
    run = ch === c ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * One line of untrusted text as a Markdown code span: delimited by one backtick more than the
 * longest run inside, padded with a space each side (CommonMark strips one), `|` escaped when the
 * span sits in a table cell. The empty string is shown as `(empty)`.
 */
export function mdCode(text: string, options: { inTable?: boolean } = {}): string {
  let shown = showLine(text);
  if (shown === '') return '*(empty)*';
  // A pipe in a cell is escaped by an odd run of backslashes before it, whatever the text had there:
  // GFM splits the row before it reads the span, and `\\|` could be read as an escaped backslash and a bare pipe.
  if (options.inTable) shown = shown.replace(/(\\*)\|/g, (_, bs: string) => `${bs}${bs.length % 2 === 1 ? '\\' : ''}\\|`);
  const fence = '`'.repeat(longestRun(shown, '`') + 1);
  return `${fence} ${shown} ${fence}`;
}

/** Text of many lines as a fenced code block: the fence is longer than any backtick run inside, so nothing inside can close it. */
export function mdFence(text: string, info = 'text'): string {
  const shown = showText(text).replace(/\n+$/, '');
  const fence = '`'.repeat(Math.max(3, longestRun(shown, '`') + 1));
  return `${fence}${info}\n${shown}\n${fence}`;
}

/** Trusted words of our own that may still hold a character Markdown acts on: every ASCII punctuation character backslash-escaped. */
export function mdEscape(text: string): string {
  return showLine(text).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/** Text for HTML: hidden characters escaped (show/untrusted.ts), then `& < > " '` as entities; safe in a text node and in a quoted attribute. */
export function htmlText(text: string, multiline = false): string {
  const shown = multiline ? showText(text) : showLine(text);
  return shown.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Markdown lines joined, at most `maxChars` characters (UTF-16 units, as GitHub counts a comment)
 * or `maxBytes` UTF-8 bytes (as it counts a job summary), whichever is reached first: whole lines
 * are kept while the text and `cut(n)` still fit, and `cut(n)` (saying what the `n` lines left out
 * are, and where they are) ends the text.
 */
export function boundedLines(
  head: readonly string[],
  body: readonly string[],
  tail: readonly string[],
  limits: { maxChars?: number; maxBytes?: number },
  cut: (left: number) => string,
): { text: string; cut: number } {
  const size = (s: string) => Math.max(limits.maxBytes === undefined ? 0 : Buffer.byteLength(s, 'utf8'), s.length);
  const max = Math.min(limits.maxChars ?? Infinity, limits.maxBytes ?? Infinity);
  const all = [...head, ...body, ...tail].join('\n') + '\n';
  if (size(all) <= max) return { text: all, cut: 0 };
  const out = [...head];
  let used = size(out.join('\n')) + 1;
  // The longest cut notice, and the tail: room kept for them.
  const reserve = size(cut(body.length)) + size(tail.join('\n')) + 4;
  let kept = 0;
  for (const line of body) {
    const n = size(line) + 1;
    if (used + n + reserve > max) break;
    out.push(line);
    used += n;
    kept++;
  }
  return { text: [...out, '', cut(body.length - kept), ...tail].join('\n') + '\n', cut: body.length - kept };
}
