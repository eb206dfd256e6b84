import type { Scope, Unit } from '../../../model/model.js';
import { proseLines, sectionTitle } from '../claims.js';
import { bareItem, dontFrom, listHead } from '../list-heads.js';
import { WRONG_WAY } from './terms.js';

/** One line a reader takes as a claim: a rule's line, or a line of a code example or template. */
export interface RuleLine {
  path: string;
  line: number;
  text: string;
  /** The unit it belongs to (`path:line`): two lines of one unit are one rule. */
  unit: string;
  /** Its nearest heading's text, lower-cased ('' for none). */
  section: string;
  /** A line of a code block (an example or template), not prose. */
  code: boolean;
  /** A line of a code block shown as the wrong way (under "❌ Wrong:", "Don't:"), or a bare item of a "don't" list: it says not to. */
  wrong: boolean;
  /** A list item: its siblings under one heading may be a catalogue. */
  item: boolean;
  scope: Scope;
}

const FENCE_LINE = /^\s*(?:```|~~~)/;

/** Every line of the rules that says something: prose lines, and the lines inside code blocks. */
export function ruleLines(units: Unit[], scopeOf: (u: Unit) => Scope): RuleLine[] {
  const out: RuleLine[] = [];
  const section = new Map<string, string>();
  const before = new Map<string, Unit>(); // the unit before, by file
  const dontList = new Map<string, boolean>(); // under a "don't" heading or label, by file
  for (const u of units) {
    const previous = before.get(u.path);
    before.set(u.path, u);
    const heads = listHead(u);
    if (heads !== null) dontList.set(u.path, heads);
    if (u.kind === 'heading') {
      section.set(u.path, sectionTitle(u));
      continue;
    }
    if (u.kind === 'frontmatter' || u.kind === 'html') continue;
    const [path, unit, scope, item] = [u.path, `${u.path}:${u.line}`, scopeOf(u), u.kind === 'list-item'];
    const sectionOf = section.get(u.path) ?? '';
    // Nearly every unit is one line: its prose lines are a list of one, read without a set.
    const prose = proseLines(u);
    const wrong = u.kind === 'code' && previous !== undefined && previous.kind !== 'heading' && WRONG_WAY.test(previous.lines.at(-1)!);
    // An item of a "don't" list that is one bare instruction ("- Blindly accept all changes") says not to.
    const dont = dontFrom(u, dontList.get(u.path) === true);
    for (let i = 0; i < u.lines.length; i++) {
      const text = u.lines[i]!;
      if (text.trim() === '' || FENCE_LINE.test(text)) continue;
      const code = u.kind === 'code' || !prose.includes(i);
      const turned = code ? wrong : i >= dont && bareItem(text);
      out.push({ path, line: u.line + i, text, unit, section: sectionOf, code, wrong: turned, item, scope });
    }
  }
  return out;
}
