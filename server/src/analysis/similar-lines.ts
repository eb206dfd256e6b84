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
  const tokensOf = lists.map((lines) => {
    const seen = new Map<string, number>();
    return lines.map((l) => {
      const k = seen.get(l) ?? 0;
      seen.set(l, k + 1);
      return `${k}\0${l}`;
    });
  });
  // One global order: rarest first, then first seen.
  const ids = new Map<string, number>();
  const freq: number[] = [];
  for (const tokens of tokensOf) {
    for (const t of tokens) {
      let id = ids.get(t);
      if (id === undefined) ids.set(t, (id = freq.length)), freq.push(0);
      freq[id]!++;
    }
  }
  const postings = new Map<number, number[]>();
  const pairs: [number, number][] = [];
  const seenPair = new Set<number>();
  tokensOf.forEach((tokens, i) => {
    const n = tokens.length;
    if (n === 0) return;
    // One token more than the bound needs, so a rounding of `share * n` can never leave a pair out.
    const need = Math.max(1, Math.ceil(share * n) - 1);
    const prefix = Math.min(n, n - need + 1);
    const order = [...new Set(tokens.map((t) => ids.get(t)!))].sort((a, b) => freq[a]! - freq[b]! || a - b);
    for (const id of order.slice(0, prefix)) {
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
