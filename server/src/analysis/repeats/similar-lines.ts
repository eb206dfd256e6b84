/**
 * Which files can share most of their lines, without comparing every pair of files (a prefix filter,
 * as in set-similarity joins). Each file is a multiset of lines; the k-th repeat of a line in one file
 * is its own token, so the tokens two files share are the lines they share counted with repeats.
 * Tokens are ordered rarest first, the same order for every file. When two files share at least
 * `share` of the longer one's tokens, the first `n - ceil(share * n) + 1` tokens of each (its prefix)
 * already meet: a pair of files whose prefixes never meet cannot share that much, and is never looked at.
 */

/** Pairs `[i, j]` (i < j) of lists that may share at least `share` of the longer one's lines: every such pair is among them. */
export function similarCandidates(lists: readonly (readonly string[])[], share: number): [number, number][] {
  const { tokensOf, freq } = lineTokens(lists);
  const postings = new Map<number, number[]>();
  const pairs: [number, number][] = [];
  const seenPair = new Set<number>();
  tokensOf.forEach((tokens, i) => {
    const n = tokens.length;
    if (n === 0) return;
    // One token more than the bound needs, so a rounding of `share * n` can never leave a pair out.
    const need = Math.max(1, Math.ceil(share * n) - 1);
    const prefix = Math.min(n, n - need + 1);
    // One global order: rarest first, then first seen. A file's tokens are distinct (each repeat of a
    // line is a token of its own), and its list is not read again: sorted in place.
    const order = tokens.sort((a, b) => freq[a]! - freq[b]! || a - b);
    for (let t = 0; t < prefix; t++) {
      const id = order[t]!;
      const list = postings.get(id);
      if (list === undefined) {
        postings.set(id, [i]);
        continue;
      }
      for (const j of list) {
        const key = j * lists.length + i;
        if (seenPair.has(key)) continue;
        seenPair.add(key);
        pairs.push([j, i]);
      }
      list.push(i);
    }
  });
  return pairs;
}

/**
 * Each list's lines as token numbers, in the order first seen: the k-th repeat of a line in a list
 * is a token of its own, the same in every list. With how many lists hold each token. One map of the
 * distinct lines and a few arrays by line, not a map per list (this runs for every file).
 */
function lineTokens(lists: readonly (readonly string[])[]): { tokensOf: Int32Array[]; freq: Int32Array } {
  // No more distinct lines, nor tokens, than lines in all: arrays of that size, never grown.
  let total = 0;
  for (let l = 0; l < lists.length; l++) total += lists[l]!.length;
  const lineIds = new Map<string, number>();
  let lineCount = 0;
  // By line number: its first occurrence's token, the list it was last met in, and how often there.
  const firstToken = new Int32Array(total);
  const lastList = new Int32Array(total);
  const metInList = new Int32Array(total);
  // The tokens of a line's later repeats in one list (the k-th repeat's at k - 1), for lines that repeat at all.
  const laterTokens = new Map<number, number[]>();
  const freq = new Int32Array(total);
  let tokenCount = 0;
  const tokensOf = lists.map((lines, list) => {
    const tokens = new Int32Array(lines.length);
    for (let x = 0; x < lines.length; x++) {
      let line = lineIds.get(lines[x]!);
      if (line === undefined) {
        lineIds.set(lines[x]!, (line = lineCount++));
        firstToken[line] = tokenCount++;
        lastList[line] = -1;
      }
      let id: number;
      if (lastList[line] !== list) {
        lastList[line] = list;
        metInList[line] = 1;
        id = firstToken[line]!;
      } else {
        const k = metInList[line]!++;
        let later = laterTokens.get(line);
        if (later === undefined) laterTokens.set(line, (later = []));
        id = later[k - 1] ??= tokenCount++;
      }
      freq[id]!++;
      tokens[x] = id;
    }
    return tokens;
  });
  return { tokensOf, freq };
}

/**
 * The pairs of names that are together in at least `min` of the groups (each group: distinct names
 * in code-unit order), each with the indexes of the groups it is in; in the order that listing every
 * pair of every group, group by group, would first meet them. Through the same prefix filter: a name
 * in fewer than `min` groups is in no such pair, and the others are compared only when one of their
 * rarest groups is shared (a line repeated in every one of 2,000 files is not 2 million pairs).
 */
export function pairsTogether(groups: readonly (readonly string[])[], min: number): { a: string; b: string; groups: number[] }[] {
  const member = new Map<string, number[]>();
  groups.forEach((g, k) => {
    for (const name of g) {
      const list = member.get(name);
      if (list) list.push(k);
      else member.set(name, [k]);
    }
  });
  const postings = new Map<number, string[]>();
  const seen = new Set<string>();
  const out: { a: string; b: string; groups: number[] }[] = [];
  for (const [name, ks] of member) {
    if (ks.length < min) continue;
    const prefix = [...ks].sort((x, y) => groups[x]!.length - groups[y]!.length || x - y).slice(0, ks.length - min + 1);
    for (const k of prefix) {
      const list = postings.get(k);
      if (list === undefined) {
        postings.set(k, [name]);
        continue;
      }
      for (const other of list) {
        const [a, b] = other < name ? [other, name] : [name, other];
        const key = `${a}\0${b}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const together = intersectSorted(member.get(a)!, member.get(b)!);
        if (together.length >= min) out.push({ a, b, groups: together });
      }
      list.push(name);
    }
  }
  return out.sort((x, y) => x.groups[0]! - y.groups[0]! || (x.a < y.a ? -1 : x.a > y.a ? 1 : 0) || (x.b < y.b ? -1 : x.b > y.b ? 1 : 0));
}

function intersectSorted(x: number[], y: number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < x.length && j < y.length;) {
    if (x[i] === y[j]) {
      out.push(x[i]!);
      i++;
      j++;
    } else if (x[i]! < y[j]!) i++;
    else j++;
  }
  return out;
}
