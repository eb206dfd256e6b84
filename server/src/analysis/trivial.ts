import type { Unit } from '../model/model.js';
import { normalizedOf } from './normalized.js';

/** Lines shorter than this are too generic to call a repetition ("---", "Notes:"). */
const MIN_REPEATED_LINE = 12;
/** A line of at most this many words that ends with a colon, or is all bold, is a label. */
const MAX_LABEL_WORDS = 6;

export const stripMarker = (l: string): string => l.replace(/^([-*+]|\d+[.)])\s+/, '');

/**
 * Too little to be a rule: short lines, lines without words (table rules), and labels. Such text is
 * never reported as repeated.
 */
export function isTrivial(text: string): boolean {
  return text.length < MIN_REPEATED_LINE || !/\p{L}{2,}.*\s.*\p{L}{2,}/su.test(text) || isLabel(text);
}

/**
 * A label that only introduces what follows ("**Example:**", "When reviewing pull requests:") or a
 * short table header ("| Status | Option ID |"). Each copy belongs where it stands, so the plan never
 * merges one away, however often it repeats.
 */
export function isLabel(text: string): boolean {
  if (text.startsWith('|') && text.replace(/[|:-]/g, ' ').trim().split(/\s+/).length <= MAX_LABEL_WORDS) return true;
  if (text.includes('\n')) return false;
  const bare = stripMarker(text).replace(/[*_`]/g, '').trim();
  // The words are counted last: most lines end otherwise and are not bold.
  return (bare.endsWith(':') || /^(\*\*|__)[^*_]+(\*\*|__)$/.test(stripMarker(text))) && bare.split(/\s+/).length <= MAX_LABEL_WORDS;
}

/** A paragraph that is a label; a list item, however short or bold, is a rule. */
export const isLabelUnit = (u: Unit): boolean => u.kind === 'paragraph' && isLabel(normalizedOf(u));
