import type { InstructionDoc, Unit } from '../../model/model.js';
import { isFileNameTitle, isStructural, outlineUnits } from '../outline.js';

/**
 * A heading-less document (a flat file, an `.mdc` body) is one unit: it is written whole, in its
 * order, under a heading built from its `description` or, for a rule file in a tool's rules folder,
 * its file name. It is split, one rule per line (each then sorted by topic on a confident match),
 * only when it is a list of independent one-line imperatives: at least three, every unit one of them.
 */

/** Words a one-line rule opens with when it asks for something. */
const IMPERATIVE = new Set(
  (
    'use never always avoid prefer keep do don’t dont write run add make ensure follow put place name call check test return ' +
    'import export create remove delete update read document validate handle log throw wrap split store pass set treat mark ' +
    'limit include exclude commit push ask favor favour consider only must should stick reuse default pin install build ' +
    'format lint type declare define prefix suffix group sort comment mock stub fix refactor migrate separate respect'
  ).split(' '),
);

/** The first word of a rule line, list marker, emphasis and code marks aside, lower-cased. */
function firstWord(line: string): string {
  const t = line
    .trim()
    .replace(/^([-*+]|\d{1,3}[.)])\s+/, '')
    .replace(/^[*_`]+/, '');
  return (/^[\p{L}\u2019']+/u.exec(t)?.[0] ?? '').toLowerCase().replace(/'/g, '’');
}

/** A one-line rule that asks for something: a bullet or a sentence opening with an imperative. */
function isImperativeLine(u: Unit): boolean {
  if ((u.kind !== 'list-item' && u.kind !== 'paragraph') || u.lines.length !== 1 || isStructural(u)) return false;
  const word = firstWord(u.lines[0]!);
  return IMPERATIVE.has(word) || IMPERATIVE.has(word.replace(/\u2019t$/, ''));
}

/** Whether a heading-less document's units are independent one-line imperatives, to be split and sorted one by one. */
export function isRuleList(units: Unit[]): boolean {
  const rules = units.filter(
    (u) => u.kind !== 'heading' && u.kind !== 'frontmatter' && !(u.kind === 'html' && u.lines[0]!.startsWith('<!--')),
  );
  return rules.length >= 3 && rules.every(isImperativeLine);
}

/** Folders whose files are rules of their own, named after their subject. */
const RULES_FOLDER = /(^|\/)(\.cursor\/rules|\.clinerules|\.windsurf\/rules|\.claude\/rules|\.roo\/rules[\w-]*)\//;

/**
 * The heading a heading-less document's unit goes under: its description's first sentence, else the
 * name of a rule file in a tool's rules folder (`executing-commands.mdc` → "Executing commands"),
 * else none (a root AGENTS.md or .cursorrules stays under Copilot's title, whole).
 */
export function flatSectionName(doc: Pick<InstructionDoc, 'path' | 'description'>): string | null {
  const described = doc.description
    ?.split(/(?<=[.!?])\s/)[0]!
    .replace(/[.:;\s]+$/, '')
    .trim();
  if (described && described.length <= 80 && !/[\r\n\u2028\u2029]/.test(described)) return capitalised(described);
  if (!RULES_FOLDER.test(doc.path)) return null;
  const stem = doc.path
    .slice(doc.path.lastIndexOf('/') + 1)
    .replace(/\.(mdc|md|txt)$/i, '')
    .replace(/\.(always|auto|agent|manual)$/i, '')
    .replace(/^\d+[-_. ]+/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return stem && stem.length <= 80 && !/[\r\n\u2028\u2029]/.test(stem) ? capitalised(stem) : null;
}

const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Whether a document is written as one unit under the heading its description names: the description is carried there. */
export function descriptionNamesSection(doc: Pick<InstructionDoc, 'path' | 'description' | 'units'>): boolean {
  if (!doc.description || flatSectionName({ path: '', description: doc.description }) === null) return false;
  const units = outlineUnits(doc.units).units;
  const flat = !units.some((u) => u.kind === 'heading' && !(u.level === 1 && isFileNameTitle(u.lines[0]!)));
  return flat && !isRuleList(units);
}
