/**
 * Lists that show what not to do (issue 39): "❌ **Don't:**", "## Things to avoid". An item of such a
 * list that is one bare instruction ("- Skip the checklist") is a rule against it, not for it.
 */
import type { Unit } from '../../model/model.js';

/** A heading or a label line ("❌ **Don't:**", "## Things to avoid") that says what the list under it shows. */
const DONT_HEAD =
  /^(?:[\u274C\u2717\u2718\u{1F6AB}\u26D4]|(?:don'?ts?|do not|never|avoid|bad|wrong|incorrect|anti-?patterns?|forbidden|prohibited)\b|.{0,40}\b(?:to avoid|not to do|don'?ts|anti-?patterns?)$)/iu;
const LABEL_LINE = /^\s*(?:\p{Extended_Pictographic}\uFE0F?\s*)?(?:\*\*|__)[^*_]{1,40}(?:\*\*|__)\s*:?\s*$|^\s*\p{Extended_Pictographic}/u;

/**
 * Whether the list items after this unit say what not to do (true), what to do (false), or the unit
 * leaves that as it was (null): a heading or a bold or marked label line sets it (issue 39).
 */
export function listHead(unit: Unit): boolean | null {
  if (unit.kind === 'heading') return DONT_HEAD.test(unit.lines[0]!.replace(/^\s*#+\s*/, '').trim());
  if (unit.kind !== 'paragraph' || unit.lines.length !== 1 || !LABEL_LINE.test(unit.lines[0]!)) return null;
  const label = unit.lines[0]!.replace(/[*_:]/g, '').trim();
  // "👎 Avoid", "⚠️ Don't": the word says it when the mark does not.
  return DONT_HEAD.test(label) || DONT_HEAD.test(label.replace(/^[\p{Extended_Pictographic}\uFE0F\s]+/u, ''));
}

/**
 * An item that is one bare instruction ("- Skip the checklist"): the list's "don't" is its polarity. An
 * item with its own negation or a second sentence ("**Don't X** — do Y instead") says its own.
 */
export const bareItem = (text: string): boolean =>
  !/\b(?:don'?t|do not|never|avoid|not|no|instead|rather)\b|[.;!?:]\s+\S|\s[\u2014\u2013-]\s/i.test(text);
