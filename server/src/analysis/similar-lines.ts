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
  // Token ids in the order first seen: the k-th repeat of a line in a file is idsOf.get(line)[k].
  const idsOf = new Map<string, number[]>();
  const freq: number[] = [];
  const tokensOf = lists.map((lines) => {
    const seen = new Map<string, number>();
    return lines.map((l) => {
      const k = seen.get(l) ?? 0;
      seen.set(l, k + 1);
      let ids = idsOf.get(l);
      if (ids === undefined) idsOf.set(l, (ids = []));
      let id = ids[k];
      if (id === undefined) {
        id = ids[k] = freq.length;
        freq.push(0);
      }
      freq[id]!++;
      return id;
    });
  });
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
