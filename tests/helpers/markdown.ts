/**
 * A small reading of Markdown for the tests of what the tool writes (job summaries, reports): the
 * text of a line outside its code spans (CommonMark: a run of N backticks up to the next run of
 * exactly N), and the lines outside fenced code blocks. Enough to say that untrusted text stayed
 * inside code.
 */

/** The line with every code span removed (an unclosed run of backticks is kept as text). */
export function outsideCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`' || (i > 0 && line[i - 1] === '\\')) {
      out += line[i++];
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n++;
    let j = i + n;
    let close = -1;
    while (j < line.length) {
      if (line[j] === '`') {
        let m = 0;
        while (line[j + m] === '`') m++;
        if (m === n) {
          close = j;
          break;
        }
        j += m;
      } else j++;
    }
    if (close < 0) {
      out += line.slice(i, i + n);
      i += n;
    } else {
      out += '<code>';
      i = close + n;
    }
  }
  return out;
}

/** The lines that are not inside a fenced code block (the fences themselves left out). */
export function linesOutsideFences(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const m = /^(`{3,}|~{3,})/.exec(line);
    if (fence === null && m) fence = m[1]!;
    else if (fence !== null && line.startsWith(fence) && line.slice(fence.length).trim() === '') fence = null;
    else if (fence === null) out.push(line);
  }
  return out;
}

/** Lines of Markdown outside code: what a renderer would read as Markdown, with code spans as `<code>`. */
export function markdownOutsideCode(text: string): string[] {
  return linesOutsideFences(text).map(outsideCodeSpans);
}

/** What a hostile name or rule must never become outside code: HTML, a link, a javascript: URL, a heading of its own. */
export const HOSTILE = /<script|<img|\]\(|javascript:|^#+ .*(script|javascript)/i;
