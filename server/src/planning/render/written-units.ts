import type { Unit } from '../../model/model.js';
import { headingKey, splitRuleLines } from '../outline.js';
import { anywhereHeadingKey, anywhereKey, headKey, KeyMap, plainKeys, ruleKey, type UnitKey } from './keys.js';
import { keptTitle, unitText } from './rendered.js';

/** One unit written into a target, and the files whose equal unit was merged into it. */
interface Copy {
  unit: Unit;
  takenBy: Set<string>;
}

/** The copies found under one key, and per file where the search for a free one starts. */
interface Found {
  copies: Copy[];
  /** The copies before it are the file's own or taken by it, for good. */
  from: Map<string, number>;
}

/**
 * The units written into one target so far, each copy once. A unit is merged away only into an
 * equal copy another file wrote under the same heading, and each merge takes one copy for the
 * merging file: a file that says X three times finds three copies or writes the rest, while a copy
 * is shared by every other file that merges into it. A repeat inside one file is never removed.
 */
export class WrittenUnits {
  private readonly found = new KeyMap<Found>();
  /** Per file added without keys: the headings above the last unit, to know what heading a unit stands under. */
  private readonly stacks = new Map<string, { level: number; key: string }[]>();

  /**
   * Record `u` as written; `keys` are the keys it is found again under. Without keys (a unit of a
   * file already in the target, added in file order) it is found under its heading's words, and by
   * a rule that stood under no heading wherever it is.
   */
  add(u: Unit, keys?: UnitKey[]): void {
    if (keys) {
      this.register(u, [...keys, ...plainKeys(u)]);
      return;
    }
    const stack = this.stacks.get(u.path) ?? [];
    this.stacks.set(u.path, stack);
    if (u.kind === 'heading') this.addHeading(u, stack);
    else this.addInTarget(u, stack[stack.length - 1]?.key ?? '');
  }

  private addHeading(u: Unit, stack: { level: number; key: string }[]): void {
    // A `# ` heading below the first section of a Copilot file is no chapter: what follows stays in that section.
    const stray = u.level === 1 && stack.length > 0;
    while (!stray && stack.length > 0 && stack[stack.length - 1]!.level >= u.level!) stack.pop();
    const parent = stack[stack.length - 1]?.key ?? '';
    // A heading may have been a pseudo-heading line in a source ("**Release:**"): found as that line too.
    const line = u.lines[0]!.replace(/^ {0,3}#{1,6} /, '').trimEnd();
    this.register(u, [headKey('', u.lines[0]!), headKey(parent, u.lines[0]!), ...plainKeys(u), ruleKey('', line), anywhereKey(line)]);
    if (!stray) stack.push({ level: u.level!, key: headingKey(u.lines[0]!) });
  }

  /** A unit of a file already in the target, under the heading `ctx`. */
  private addInTarget(u: Unit, ctx: string): void {
    const text = unitText(u);
    const keys = [ruleKey('', text), ruleKey(ctx, text), ...plainKeys(u)];
    // A one-line unit may be what a source's pseudo-heading says, once made a heading.
    if (u.lines.length === 1 && (u.kind === 'paragraph' || u.kind === 'list-item'))
      keys.push(headKey('', u.lines[0]!), headKey(ctx, u.lines[0]!), anywhereHeadingKey(u.lines[0]!));
    const title = keptTitle(u);
    if (title) keys.push(headKey('', title), anywhereHeadingKey(title));
    this.register(u, keys);
    // A unit here may come in parts from a file that had them apart: cut where a person starts a new unit.
    const pieces = splitRuleLines([u]);
    if (pieces.length > 1) for (const part of pieces) this.registerPart(part, unitText(part), ctx);
    // Lines of one paragraph here may come, one rule per line, from a file that had them apart.
    else if (u.kind === 'paragraph' && u.lines.length > 1)
      u.lines.forEach((line, k) => this.registerPart({ ...u, line: u.line + k, lines: [line] }, line.trimEnd(), ctx));
  }

  private registerPart(part: Unit, text: string, ctx: string): void {
    this.register(part, [ruleKey('', text), ruleKey(ctx, text), ...plainKeys(part)]);
  }

  private register(unit: Unit, keys: UnitKey[]): void {
    const copy: Copy = { unit, takenBy: new Set() };
    const done = new Set<Found>();
    for (const k of keys) {
      const found = this.found.ensure(k, () => ({ copies: [], from: new Map() }));
      if (done.has(found)) continue;
      done.add(found);
      found.copies.push(copy);
    }
  }

  /**
   * Merge `u` into a copy from another file, under one of `keys`, that `u`'s file has not merged
   * into yet (and that `accept` takes); its file cannot take that copy again. Undefined when there
   * is none: `u` is written.
   */
  take(u: Unit, keys: UnitKey[], accept?: (copy: Unit) => boolean): Unit | undefined {
    const copy = this.free(u.path, keys, undefined, accept);
    copy?.takenBy.add(u.path);
    return copy?.unit;
  }

  /** Whether every unit of `units` (all of one file) would find its own copy, without taking any. */
  covers(units: Unit[], keysOf: (u: Unit) => UnitKey[]): boolean {
    const reserved = new Set<Copy>();
    return units.every((u) => {
      const copy = this.free(u.path, keysOf(u), reserved);
      if (copy) reserved.add(copy);
      return copy !== undefined;
    });
  }

  /**
   * Merge each unit of `units` (all of one file, in order) into its own copy, wherever it stands: the
   * copies one file's, in the same order. When every unit has one and `accept` takes them all; else
   * undefined, and nothing taken.
   */
  takeAll(units: Unit[], keysOf: (u: Unit) => UnitKey[], accept: (copies: Unit[]) => boolean): Unit[] | undefined {
    const reserved: Copy[] = [];
    for (const u of units) {
      const prev = reserved[reserved.length - 1]?.unit;
      const after = prev ? (c: Unit) => c.path === prev.path && c.line > prev.line : undefined;
      const copy = this.free(u.path, keysOf(u), new Set(reserved), after);
      if (!copy) return undefined;
      reserved.push(copy);
    }
    if (!accept(reserved.map((c) => c.unit))) return undefined;
    for (const c of reserved) c.takenBy.add(units[0]!.path);
    return reserved.map((c) => c.unit);
  }

  private free(path: string, keys: UnitKey[], reserved?: Set<Copy>, accept?: (copy: Unit) => boolean): Copy | undefined {
    for (const k of keys) {
      const found = this.found.get(k);
      if (!found) continue;
      const list = found.copies;
      // Linear over a file of many identical units: what is passed once is never looked at again.
      let i = found.from.get(path) ?? 0;
      while (i < list.length && (list[i]!.unit.path === path || list[i]!.takenBy.has(path))) i++;
      found.from.set(path, i);
      for (let j = i; j < list.length; j++) {
        const c = list[j]!;
        if (c.unit.path !== path && !c.takenBy.has(path) && !reserved?.has(c) && (!accept || accept(c.unit))) return c;
      }
    }
    return undefined;
  }
}
