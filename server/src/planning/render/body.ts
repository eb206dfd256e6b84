import type { Unit } from '../../model/model.js';
import type { Merged } from '../../model/plan.js';
import { isBlank } from '../../common/text.js';
import { blocksOf, headingKey, isStructural } from '../outline.js';
import { isToolMark } from '../../model/unit-shape.js';
import { sectionRepeats } from './section-repeats.js';
import { headKey, plainKeys, type UnitKey } from './keys.js';
import { ruleKeys } from './placement.js';
import { asItIs, mergedEntry, trimEnd, type Rendered } from './rendered.js';
import type { WrittenUnits } from './written-units.js';

/**
 * The existing Copilot file as the plan keeps it: as the person wrote it, line for line (issue 40:
 * the person's text is fixed ground). A flat file is not sorted into topic sections: that would move
 * their lines away from the lines that introduce them; what the plan adds goes after.
 */
export function renderBase(path: string, fileLines: string[]): Rendered {
  return asItIs(path, fileLines);
}

/** The heading words each unit stands under, read as `WrittenUnits` reads a file of the target: a `# ` heading below a section opens no chapter. */
function headingsAbove(units: Unit[]): string[] {
  const ctx: string[] = [];
  const stack: { level: number; key: string }[] = [];
  for (const u of units) {
    if (u.kind === 'heading') {
      const stray = u.level === 1 && stack.length > 0;
      while (!stray && stack.length > 0 && stack[stack.length - 1]!.level >= u.level!) stack.pop();
      ctx.push(stack[stack.length - 1]?.key ?? '');
      if (!stray) stack.push({ level: u.level!, key: headingKey(u.lines[0]!) });
    } else ctx.push(stack[stack.length - 1]?.key ?? '');
  }
  return ctx;
}

/** A legacy body kept as it is, minus units another file already wrote into the target under the same heading, for a scoped file. */
export function bodyOf(
  path: string,
  fileLines: string[],
  bodyStart: number,
  units: Unit[],
  written: WrittenUnits,
  merged: Merged[],
): Rendered {
  const drop = new Set<number>();
  const ctx = headingsAbove(units);
  const keysOf = (index: number): UnitKey[] => {
    const u = units[index]!;
    return u.kind === 'heading' ? [headKey(ctx[index]!, u.lines[0]!)] : ruleKeys(ctx[index]!, u);
  };
  // What a section says again is written once: into what was written for the unit it repeats.
  const repeats = sectionRepeats(units, (run) => blocksOf(run, isToolMark));
  const all = written.covers(
    units.filter((u) => !repeats.has(u)),
    plainKeys,
  );
  // Per merged unit: its entry in `merged`, and the lines it dropped.
  const gone = new Map<number, { entry: Merged; lines: number[] }>();
  const remove = (u: Unit, copy: Unit, repeat = false): { entry: Merged; lines: number[] } => {
    const entry = mergedEntry(u, copy, repeat);
    merged.push(entry);
    const start = u.line - 1;
    const end = start + u.lines.length;
    const lines = Array.from({ length: u.lines.length }, (_, k) => start + k);
    // Take the blank line after a removed unit too, so no double gap is left behind.
    if ((start <= bodyStart || isBlank(fileLines[start - 1] ?? '')) && isBlank(fileLines[end] ?? 'x')) lines.push(end);
    for (const i of lines) drop.add(i);
    return { entry, lines };
  };
  const index = new Map(units.map((u, i) => [u, i]));
  for (const [i, u] of units.entries()) {
    const first = repeats.get(u);
    if (first) {
      const copy = gone.get(index.get(first)!)?.entry.keptAt;
      gone.set(i, remove(u, copy ? { ...first, path: copy.path, line: copy.line } : first, true));
      continue;
    }
    // A heading is merged only with everything under it; separators, tags, table rows and code never alone.
    const mayMerge = all || (u.kind === 'heading' ? subtreeCovered(units, i, written, keysOf) : !isStructural(u));
    const dupOf = mayMerge
      ? all
        ? (written.take(u, [...keysOf(i), ...plainKeys(u)]) ?? written.take(u, plainKeys(u)))
        : written.take(u, keysOf(i))
      : undefined;
    if (!dupOf) {
      written.add(u, keysOf(i));
      continue;
    }
    gone.set(i, remove(u, dupOf));
  }
  // No heading left with nothing under it: it goes with what merged away, into an equal heading, or all of it stays.
  for (let h = 0; h < units.length; h++) {
    const u = units[h]!;
    if (u.kind !== 'heading' || gone.has(h)) continue;
    let end = h + 1;
    while (end < units.length && !(units[end]!.kind === 'heading' && units[end]!.level! <= u.level!)) end++;
    const inside = Array.from({ length: end - h - 1 }, (_, k) => h + 1 + k);
    if (inside.length === 0 || !inside.every((i) => gone.has(i))) continue;
    const copy = written.take(u, plainKeys(u));
    if (copy) gone.set(h, remove(u, copy));
    else
      for (const i of inside) {
        const g = gone.get(i)!;
        merged.splice(merged.indexOf(g.entry), 1);
        for (const line of g.lines) drop.delete(line);
        gone.delete(i);
        written.add(units[i]!, keysOf(i));
      }
    h = end - 1;
  }
  return keptLines(fileLines, bodyStart, drop, path);
}

/** The body's lines but the dropped ones, without blank lines at either end. */
function keptLines(fileLines: string[], bodyStart: number, drop: Set<number>, path: string): Rendered {
  const out: Rendered = { lines: [], refs: [] };
  let dropped = false;
  for (let i = bodyStart; i < fileLines.length; i++) {
    if (drop.has(i)) {
      dropped = true;
      continue;
    }
    const line = fileLines[i]!;
    if (isBlank(line) && out.lines.length === 0) continue;
    // Two blank lines that a removed unit left side by side are one.
    if (isBlank(line) && dropped && isBlank(out.lines[out.lines.length - 1]!)) continue;
    dropped = false;
    out.lines.push(line);
    out.refs.push(isBlank(line) ? null : { path, line: i + 1 });
  }
  trimEnd(out);
  return out;
}

/** Whether a heading and everything under it, up to the next heading, would each find a copy. */
function subtreeCovered(units: Unit[], index: number, written: WrittenUnits, keysOf: (i: number) => UnitKey[]): boolean {
  let end = index + 1;
  while (end < units.length && units[end]!.kind !== 'heading') end++;
  const idx = new Map(units.map((u, i) => [u, i]));
  return written.covers(units.slice(index, end), (u) => keysOf(idx.get(u)!));
}
