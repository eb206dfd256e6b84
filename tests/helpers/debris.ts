/** What a maintainer cleans up by hand in a written file, found the same way by the tests and `npm run quality`. */

const FENCE = /^\s*(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(\s|$)/;

/** For each line: inside a fenced block (the fence lines included). */
export function fenced(lines: string[]): boolean[] {
  let fence: string | null = null;
  return lines.map((l) => {
    const f = FENCE.exec(l);
    if (fence !== null) {
      if (f && l.trim().startsWith(fence)) fence = null;
      return true;
    }
    if (f) fence = f[1]![0]!;
    return f !== null;
  });
}

/** Indexes of the headings followed, past blank lines and comments (of one line or more), by a heading of their level or above, or by the end. */
export function emptyHeadings(lines: string[]): number[] {
  const inFence = fenced(lines);
  const heads = lines.map((l, i) => (inFence[i] ? 0 : (HEADING.exec(l)?.[1]?.length ?? 0)));
  const out: number[] = [];
  heads.forEach((level, i) => {
    if (level === 0) return;
    let j = i + 1;
    for (;;) {
      while (j < lines.length && (lines[j]!.trim() === '' || /^\s*<!--.*-->\s*$/.test(lines[j]!))) j++;
      // A comment over several lines shows nothing either (a title the tool kept in one).
      if (j >= lines.length || !/^\s*<!--/.test(lines[j]!)) break;
      while (j < lines.length && !lines[j]!.includes('-->')) j++;
      j++;
    }
    if (j === lines.length || (heads[j]! > 0 && heads[j]! <= level)) out.push(i);
  });
  return out;
}
