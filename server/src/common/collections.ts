/** Append to the list under a key, creating it on first use (no copying: scans call this per line). */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Like pushTo, but a key seen once holds its value without a list (most keys of a repository's lines). */
export function pushCompact<K, V>(map: Map<K, V | V[]>, key: K, value: V): void {
  const g = map.get(key);
  if (g === undefined) map.set(key, value);
  else if (Array.isArray(g)) g.push(value);
  else map.set(key, [g, value]);
}

export function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) pushTo(map, key(item), item);
  return map;
}

/**
 * The indexes of the keys used more than once, one list per key, in the order of the key's first use
 * (what grouping and dropping the groups of one gives, without a list for every key used once).
 */
export function repeatedKeys(keys: readonly string[]): number[][] {
  // A key's first index, or, once it repeats, -1 - its group's number.
  const at = new Map<string, number>();
  const groups: number[][] = [];
  for (let i = 0; i < keys.length; i++) {
    const seen = at.get(keys[i]!);
    if (seen === undefined) at.set(keys[i]!, i);
    else if (seen >= 0) {
      at.set(keys[i]!, -1 - groups.length);
      groups.push([seen, i]);
    } else groups[-1 - seen]!.push(i);
  }
  return groups.sort((a, b) => a[0]! - b[0]!);
}

/** Order strings by code unit, the same on every machine (localeCompare follows the system locale). */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The items in groups of those joined through shared keys (two items with a key in common are in
 * one group, and so on transitively), each group in the items' order, groups in the order of their
 * first item.
 */
export function connectedGroups<T>(items: readonly T[], keysOf: (t: T) => string[]): T[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const p = parent.get(x) ?? x;
    if (p === x) return x;
    const root = find(p);
    parent.set(x, root);
    return root;
  };
  for (const item of items) {
    const [first, ...rest] = keysOf(item);
    if (first !== undefined) for (const k of rest) parent.set(find(k), find(first));
  }
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const first = keysOf(item)[0];
    if (first !== undefined) pushTo(groups, find(first), item);
  }
  return [...groups.values()];
}
