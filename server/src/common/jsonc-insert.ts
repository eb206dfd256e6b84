import { applyEdits, findNodeAtLocation, modify, parseTree, type FormattingOptions, type JSONPath } from 'jsonc-parser';

/**
 * Adds one property to a JSON-with-comments text and changes nothing else. `modify` with
 * formatting re-formats every line its edit touches, and adding a property touches the line of the
 * last sibling (a one-line server entry would become several lines). So `modify` formats the new
 * property on a copy, and the property is inserted here after the last sibling, adding only a comma.
 * `path` ends in the new key; its parent object may be missing (then it is added instead).
 */
export function insertProperty(text: string, path: JSONPath, value: unknown): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const formatted = applyEdits(text, modify(text, path, value, { formattingOptions: { ...indentOf(text), eol } }));
  const tree = parseTree(text);
  let depth = path.length - 1;
  while (depth > 0 && findNodeAtLocation(tree!, path.slice(0, depth))?.type !== 'object') depth--;
  const container = depth === 0 ? tree : findNodeAtLocation(tree!, path.slice(0, depth));
  const last = container?.children?.at(-1);
  // An empty object: the edit's lines hold nothing but the new property, so the formatted text is right.
  if (!container || container.type !== 'object' || !last) return formatted;

  const added = findNodeAtLocation(parseTree(formatted)!, path.slice(0, depth + 1))?.parent;
  if (!added) return formatted;
  const lineStart = formatted.lastIndexOf('\n', added.offset - 1) + 1;
  if (formatted.slice(lineStart, added.offset).trim() !== '') return formatted;
  const block = formatted.slice(lineStart, added.offset + added.length);

  const end = last.offset + last.length;
  const newline = text.indexOf('\n', end);
  const lineEnd = newline === -1 ? text.length : text[newline - 1] === '\r' ? newline - 1 : newline;
  const rest = /^(\s*,)?\s*(\/\/.*)?$/.exec(text.slice(end, lineEnd));
  if (!rest) return `${text.slice(0, end)},${eol}${block}${text.slice(end)}`;
  // After the last sibling's line, so that a comment there stays with it.
  return `${text.slice(0, end)}${rest[1] ? '' : ','}${text.slice(end, lineEnd)}${eol}${block}${text.slice(lineEnd)}`;
}

/** The file's own indentation: tabs, or the smallest run of leading spaces (2 when none is found). */
function indentOf(text: string): FormattingOptions {
  if (/^\t+\S/m.test(text)) return { insertSpaces: false, tabSize: 4 };
  const sizes = [...text.matchAll(/^( +)\S/gm)].map((m) => m[1]!.length);
  return { insertSpaces: true, tabSize: sizes.length > 0 ? Math.min(...sizes) : 2 };
}
