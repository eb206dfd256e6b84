/** A text file split into lines, remembering what it takes to give back the same bytes. */
export interface TextLines {
  bom: boolean;
  eol: '\n' | '\r\n' | '\r';
  finalNewline: boolean;
  lines: string[];
}

export function splitText(text: string): TextLines {
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  // Without a CR, every line ends in LF: nothing to count, and a plain split.
  const hasCr = body.includes('\r');
  const eol = hasCr ? mostCommonEol(body) : '\n';
  if (body === '') return { bom, eol, finalNewline: false, lines: [] };
  const lines = hasCr ? body.split(eol === '\r' ? /\r\n|\r|\n/ : /\r?\n/) : body.split('\n');
  const finalNewline = lines[lines.length - 1] === '';
  if (finalNewline) lines.pop();
  return { bom, eol, finalNewline, lines };
}

function mostCommonEol(body: string): TextLines['eol'] {
  const crlf = (body.match(/\r\n/g) ?? []).length;
  const lf = (body.match(/\n/g) ?? []).length - crlf;
  // A file whose lines end in lone CRs (classic Mac) is read as lines too, and written back the same way.
  const cr = (body.match(/\r(?!\n)/g) ?? []).length;
  return cr > crlf && cr > lf ? '\r' : crlf > lf ? '\r\n' : '\n';
}

export function joinText(t: TextLines): string {
  if (t.lines.length === 0) return t.bom ? '\uFEFF' : '';
  return (t.bom ? '\uFEFF' : '') + t.lines.join(t.eol) + (t.finalNewline ? t.eol : '');
}

export const isBlank = (line: string): boolean => line.trim() === '';

/**
 * Any value read from a file (a trace, a result), as text, never throwing: a string as it is, a
 * number, boolean or null as String gives it, anything else as JSON. String() and a template literal
 * throw on `{"toString": 1}` ("Cannot convert object to primitive value").
 */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  try {
    return JSON.stringify(value) ?? '(no value)';
  } catch {
    return '(a value that cannot be shown)';
  }
}

/**
 * A whole number as `toLocaleString('en-US')` writes it (`1,234,567`), without ICU: the first
 * `toLocaleString` of a process loads its number formatting, about 20 ms, which propose paid for
 * one figure of its report. Anything but a whole number is left to `toLocaleString`.
 */
export function withThousands(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
}
