import type { Unit } from '../../model/model.js';
import { demoted } from '../../model/unit-shape.js';
import { asHeading, headingKey, headingText, isFileNameTitle, isStructural, outlineUnits } from '../outline.js';
import { anywhereKey, headKey, ruleKey, type UnitKey } from './keys.js';
import { placedText, titleText, unitText } from './rendered.js';

/** A unit of a legacy document as it is placed: its heading (moved down with its tree) and the heading it stands under. */
export interface Placed {
  unit: Unit;
  /** Heading words of the heading above ('' under none); for a heading, of its parent. */
  ctx: string;
}

/**
 * A legacy document's units as they are placed in Copilot's file: rule lines apart, pseudo-headings
 * as headings, and every heading moved down with its tree below the title that names the file's
 * subject (or, under a title that names only a file, so that its chapters are `## ` sections, unless
 * one of them has the name of a section of the person's: then they are `### ` sections under a heading of their own).
 * `nested` says so.
 */
export function placement(sourceUnits: Unit[], collides: (chapters: string[]) => boolean): { out: Placed[]; nested: boolean } {
  const units = outlineUnits(sourceUnits).units;
  if (units.length === 0) return { out: [], nested: false };
  const first = units[0]!;
  const h1s = units.filter((u) => u.kind === 'heading' && u.level === 1);
  const namesFile = (u: Unit) =>
    u.kind === 'heading' &&
    u.level === 1 &&
    (isFileNameTitle(u.lines[0]!) || headingText(u.lines[0]!) === '' || (u === first && units.length === 1));
  // A title with nothing under it names no section: it is kept in a comment, as a title naming a file is.
  const titled = first.kind === 'heading' && first.level === 1 && h1s.length === 1 && units.length > 1 && !namesFile(first);
  const subject = titled ? first : null;
  const isNameTitle = (u: Unit) => namesFile(u);
  // A document with no subject of its own whose chapter has the name of one of the person's sections
  // goes under a `## ` heading of its own, its chapters one level down: never beside theirs (issue 40).
  const nested = subject === null && units.some((u) => u.kind === 'heading' && u.level! >= 2) && collides(chapters(units));
  // A `# ` heading below a section that closes within a generated block (`<!-- x:end -->` before the
  // next heading) is a chapter of that block, not the file's outline: it does not move every chapter
  // down a level; it comes down to a `## ` section itself. One with chapters of its own is an outline.
  const firstSection = units.findIndex((u) => u.kind === 'heading' && u.level! >= 2);
  const stray = new Set(
    units.filter((u, i) => firstSection >= 0 && i > firstSection && u.level === 1 && !isNameTitle(u) && closesBlock(units, i)),
  );
  const levels = units.filter((u) => u.kind === 'heading' && u !== subject && !isNameTitle(u) && !stray.has(u)).map((u) => u.level!);
  const min = levels.length > 0 ? Math.min(...levels) : Infinity;
  const by = min === Infinity ? 0 : Math.max(0, (subject || nested ? 3 : 2) - min);
  const out: Placed[] = [];
  const stack: { level: number; key: string }[] = [];
  for (const u of units) {
    if (u.kind === 'heading' && (u === subject || !isNameTitle(u))) {
      const down = stray.has(u) ? Math.max(1, by) : by;
      const h = u === subject ? demoted(u) : down > 0 ? asHeading(u, u.level! + down) : u;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level!) stack.pop();
      out.push({ unit: h, ctx: stack[stack.length - 1]?.key ?? '' });
      stack.push({ level: h.level!, key: headingKey(h.lines[0]!) });
      continue;
    }
    if (u.kind === 'heading') {
      // A title naming a file: kept in a comment; what stands under it stands under no subject.
      stack.length = 0;
      out.push({ unit: u, ctx: '' });
      continue;
    }
    out.push({ unit: u, ctx: stack[stack.length - 1]?.key ?? '' });
  }
  return { out, nested };
}

/** The heading lines of a document's chapters: its headings of the highest level below its title. */
function chapters(units: Unit[]): string[] {
  const heads = units.filter((u) => u.kind === 'heading' && u.level! >= 2);
  const top = Math.min(...heads.map((u) => u.level!));
  return heads.filter((u) => u.level === top).map((u) => u.lines[0]!);
}

const END_MARKER = /<!--[^>]*\bend\b[^>]*-->/i;

/** Whether the heading at `i` is the last of its block: no heading follows, or a block's end marker comes before the next one. */
function closesBlock(units: Unit[], i: number): boolean {
  for (let j = i + 1; j < units.length; j++) {
    const u = units[j]!;
    if (u.kind === 'heading') return false;
    if (u.kind === 'html' && END_MARKER.test(u.lines.join(' '))) return true;
  }
  return true;
}

/** A rule of one line (a bullet or a sentence), not a separator, tag, table row or code. */
export const oneLineRule = (u: Unit): boolean =>
  (u.kind === 'list-item' || u.kind === 'paragraph') && u.lines.length === 1 && !isStructural(u);

/** The keys a non-heading unit under the heading `ctx` is written under. */
export const ruleKeys = (ctx: string, u: Unit): UnitKey[] =>
  oneLineRule(u) ? [ruleKey(ctx, unitText(u)), ruleKey('', unitText(u))] : [ruleKey(ctx, unitText(u))];

/** The keys of the units of one placed document: where each is looked for, and where it is written. */
export class PlacedKeys {
  private readonly ctxOf: Map<Unit, string>;

  constructor(placed: Placed[]) {
    this.ctxOf = new Map(placed.map((p) => [p.unit, p.ctx]));
  }

  /** Where a copy of `u` is looked for. A one-line rule is the same rule wherever it stands; a longer unit under the same heading first. */
  lookup(u: Unit): UnitKey[] {
    const ctx = this.ctxOf.get(u) ?? '';
    if (u.kind === 'heading' && u.level === 1) return [headKey('', u.lines[0]!)];
    if (u.kind === 'heading') return [headKey(ctx, u.lines[0]!)];
    if (oneLineRule(u)) return [ruleKey(ctx, unitText(u)), ruleKey('', unitText(u))];
    // A longer unit is looked for under its heading first; an exact repeat of it (a paragraph, an item
    // with its lines, a tree) that another file wrote under another heading is the same text, written once.
    return [ruleKey(ctx, unitText(u)), ruleKey(ctx, placedText(u)), anywhereKey(unitText(u)), anywhereKey(placedText(u))];
  }

  /** The keys `u` is found again under once written. */
  written(u: Unit): UnitKey[] {
    const ctx = this.ctxOf.get(u) ?? '';
    if (u.kind === 'heading' && u.level === 1) return [headKey('', u.lines[0]!), ruleKey('', titleText(u))];
    if (u.kind === 'heading') return [headKey(ctx, u.lines[0]!)];
    return ruleKeys(ctx, u);
  }
}
