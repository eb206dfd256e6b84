import type { Unit } from '../../model/model.js';
import type { Merged } from '../../model/plan.js';
import type { Addition } from './addition.js';
import { plainKeys } from './keys.js';
import { mergedEntry } from './rendered.js';
import type { WrittenUnits } from './written-units.js';

/**
 * No heading stands with nothing under it. A section whose every block merged away into copies
 * another file wrote (drifted copies of one file) goes with its blocks when an equal heading is
 * written already: its heading is merged into that one. Otherwise the whole section stays: its
 * blocks, and the sub-sections merged away, are written again (every source line still lands in
 * Copilot's files, so a heading is never merged into one with other words).
 */
export class HollowSections {
  constructor(
    private readonly written: WrittenUnits,
    private readonly merged: Merged[],
    /** The section a heading unit opened, when this assembly opened one. */
    private readonly openedBy: (heading: Unit) => Addition | undefined,
    /** The heading of the section a twin section repeats (render/twin-sections.ts), whose lines it merged into. */
    private readonly twinOf: (a: Addition) => Unit | undefined = () => undefined,
  ) {}

  /** Post-order: sub-sections first, so a section whose sub-sections all went is judged on what is left. */
  prune(list: Addition[], parent: Addition | null = null): void {
    for (const a of [...list]) {
      this.prune(a.children, a);
      // A joined section with nothing under it writes nothing: dropped from its parent.
      for (let i = a.children.length - 1; i >= 0; i--) if (isBare(a.children[i]!)) a.children.splice(i, 1);
      // A heading its author left with nothing under it stays the author's.
      const emptied = (a.mergedAway?.length ?? 0) + (a.pruned?.length ?? 0) > 0;
      // A section that carries its document's title stays: the title is written with it.
      if (!a.headingUnit || a.before || a.blocks.length > 0 || a.children.length > 0 || !emptied) continue;
      // A twin section whose every line the section it repeats holds goes into that one, whatever its words (its note
      // names it); not a line the planner reads as a heading ("1. Install the tools"), which is a rule of the author's.
      const twin = a.headingUnit.pseudo ? undefined : this.twinOf(a);
      const copy = this.written.take(a.headingUnit, plainKeys(a.headingUnit), (c) => this.stands(c)) ?? twin;
      if (!copy) {
        this.restore(a);
        continue;
      }
      const entry = mergedEntry(a.headingUnit, copy);
      this.merged.push(entry);
      const index = list.indexOf(a);
      list.splice(index, 1);
      if (parent) (parent.pruned ??= []).push({ child: a, index, entry });
    }
  }

  /** A heading that will be written: not one of a section with no blocks of its own, which may go in turn. */
  private stands(copy: Unit): boolean {
    const section = this.openedBy(copy);
    return !section || section.headingUnit !== copy || section.blocks.length > 0;
  }

  /** A section written again whole: its merged blocks put back, and its sub-sections merged away. */
  private restore(a: Addition): void {
    const entries = new Set((a.mergedAway ?? []).flatMap((m) => m.entries));
    a.blocks = (a.mergedAway ?? []).map((m) => m.units);
    a.mergedAway = [];
    for (const p of [...(a.pruned ?? [])].reverse()) {
      entries.add(p.entry);
      a.children.splice(Math.min(p.index, a.children.length), 0, p.child);
      this.restore(p.child);
    }
    a.pruned = [];
    for (let i = this.merged.length - 1; i >= 0; i--) if (entries.has(this.merged[i]!)) this.merged.splice(i, 1);
  }
}

/** A section the tool or a join opened, with nothing written under it: it writes nothing. */
const isBare = (a: Addition): boolean => a.headingUnit === null && a.blocks.length === 0 && a.children.every(isBare);
