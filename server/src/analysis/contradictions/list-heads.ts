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
  if (unit.kind !== 'paragraph' || unit.lines.length !== 1) return null;
  return labelSays(unit.lines[0]!);
}

/** Whether a label line says "don't" (true) or something else (false); null for a line that is no label. */
function labelSays(line: string): boolean | null {
  if (!LABEL_LINE.test(line)) return null;
  const label = line.replace(/[*_:]/g, '').trim();
  const words = label.replace(/^[\p{Extended_Pictographic}\uFE0F\s]+/u, '');
  // A label that is a rule of its own ("❌ Never hand-edit the generated pages:") names what it forbids:
  // the items under it are its objects or what to do instead, not instructions to turn.
  if (words.split(/\s+/).length > 3 && !/\b(?:to avoid|not to do|don'?ts|anti-?patterns?)$/i.test(words)) return false;
  // "👎 Avoid", "⚠️ Don't": the word says it when the mark does not.
  return DONT_HEAD.test(label) || DONT_HEAD.test(words);
}

/**
 * The first line of a unit that is an item of a "don't" list: 0 for an item under such a heading or
 * label; 1 for the items nested under a list item that is the label ("- ❌ **Don't:**"); Infinity for none.
 */
export function dontFrom(unit: Unit, underDont: boolean): number {
  if (unit.kind !== 'list-item') return Infinity;
  const own = unit.lines.length > 1 ? labelSays(unit.lines[0]!.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')) : null;
  if (own !== null) return own ? 1 : Infinity;
  return underDont ? 0 : Infinity;
}

/**
 * An item that is one bare instruction ("- Skip the checklist"): the list's "don't" is its polarity. An
 * item with its own negation or modal ("Always use X"), a second sentence ("**Don't X** — do Y instead")
 * or an arrow ("→ Run X after changes": what to do instead) says its own.
 */
export const bareItem = (text: string): boolean =>
  !/\b(?:don'?t|do not|never|avoid|not|no|instead|rather|always|must|should|only)\b|[.;!?:]\s+\S|\s[\u2014\u2013-]\s|^\s*(?:[\u2192\u21D2\u27A1]|->|=>)/i.test(
    text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ''),
  );
