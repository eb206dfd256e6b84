import type { Problem } from '../model/problem.js';
import { byCodeUnit, pushTo } from '../common/collections.js';
import { normalizedOf } from './normalized.js';
import { type Scope, type Unit } from '../model/model.js';
import { scopesOverlap } from './scope-overlap.js';

/** Units shorter than this many words are too generic to call drifted copies. */
const MIN_WORDS = 8;
/** Word-set similarity from which two different units are near-identical. */
const THRESHOLD = 0.75;
/** Words in more units than this say nothing about which units are alike. */
const MAX_POSTINGS = 60;

/** The words of a text, lower-cased: runs of letters and digits longer than two UTF-16 units. */
export const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2);

/**
 * Paragraphs and rules in different files that say nearly the same thing in slightly different
 * words: copies that drifted apart. Exact copies are reported elsewhere. Candidates come from shared rare words, so
 * the cost stays near linear in the number of units. Files whose scopes never meet each need their copy.
 */
export function findNearDuplicates(units: Unit[], scopeOf: (u: Unit) => Scope = () => ({ kind: 'repo' })): Problem[] {
  const items: { u: Unit; text: string; set: Set<string> }[] = [];
  for (const u of units) {
    if (u.kind !== 'paragraph' && u.kind !== 'list-item') continue;
    const set = new Set(wordsOf(normalizedOf(u)));
    if (set.size >= MIN_WORDS) items.push({ u, text: normalizedOf(u), set });
  }
  const postings = new Map<string, number[]>();
  items.forEach((x, i) => x.set.forEach((w) => pushTo(postings, w, i)));
  // Pairs by number (i * n + j): a repository of thousands of rules makes hundreds of thousands of them.
  const n = items.length;
  const shared = new Map<number, number>();
  for (const ids of postings.values()) {
    if (ids.length < 2 || ids.length > MAX_POSTINGS) continue;
    for (let a = 0; a < ids.length; a++)
      for (let b = a + 1; b < ids.length; b++) {
        // Rules of one file are never drifted copies (below): their pairs are not counted at all.
        if (items[ids[a]!]!.u.path === items[ids[b]!]!.u.path) continue;
        const key = ids[a]! * n + ids[b]!;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
  }
  const problems: Problem[] = [];
  for (const [key, rare] of shared) {
    if (rare < 2) continue;
    const i = Math.floor(key / n);
    const j = key % n;
    const a = items[i]!;
    const b = items[j]!;
    // Drifted copies live in different files; alike lines in one file are usually a list's pattern.
    if (a.text === b.text || a.u.path === b.u.path || !scopesOverlap(scopeOf(a.u), scopeOf(b.u))) continue;
    let common = 0;
    a.set.forEach((w) => (common += b.set.has(w) ? 1 : 0));
    const union = a.set.size + b.set.size - common;
    if (common / union < THRESHOLD) continue;
    problems.push({
      type: 'duplication',
      kind: 'near',
      description: `Near-identical rules (drifted copies, ${Math.round((100 * common) / union)}% the same words): "${excerpt(a.text)}"`,
      locations: [
        { path: a.u.path, line: a.u.line },
        { path: b.u.path, line: b.u.line },
      ],
    });
  }
  return problems.sort((x, y) => byCodeUnit(x.locations[0]!.path, y.locations[0]!.path) || x.locations[0]!.line - y.locations[0]!.line);
}

function excerpt(t: string): string {
  const one = t.replace(/\n/g, ' ');
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
