import type { Unit } from '../../model/model.js';
import type { Addition } from './addition.js';

const LIST_LINE = /^(\s*([-*+]|\d+[.)])\s|\s+\S)/;

/** A list item whose last line is still the list's (an item, or indented under one): a next item joins the list right after it. */
const endsInList = (u: Unit): boolean => u.kind === 'list-item' && LIST_LINE.test(u.lines[u.lines.length - 1]!);

/**
 * Where the lines of a twin section that differ go in the section of another source it joined
 * (issue 40): each run of them right where it stood in its own file, after the line both files
 * share that came before it and after that section's own lines in its place (the counterpart it
 * differs from), never at the section's end after its last line or separator. A list item joins
 * the list it stood in, so its numbering continues.
 */
export class TwinPlacement {
  /** The unit of the section the next run goes after; null: the section's start. */
  private after: Unit | null = null;

  constructor(
    readonly node: Addition,
    /** Whether a unit of the section is of the other file's own (no line of the twin section has its text): the counterparts passed over. */
    private readonly othersOwn: (u: Unit) => boolean,
  ) {}

  /** A unit of the twin section was merged into `copy` (or written in part, next to it): what differs next goes after it. */
  follows(copy: Unit): void {
    this.after = copy;
  }

  /** A run of units of one block of the twin section, all of them differing: put in place, as written (a list item tight in its list). */
  place(run: Unit[]): Unit[] {
    const blocks = this.node.blocks;
    const flat = blocks.flatMap((b, bi) => b.map((u, ui) => ({ u, bi, ui })));
    let at = this.after ? flat.findIndex((e) => e.u === this.after) : -1;
    if (this.after && at === -1) return this.append(run);
    while (at + 1 < flat.length && this.othersOwn(flat[at + 1]!.u)) at++;
    const listed = run.map((u) => (u.kind === 'list-item' && u.blankBefore ? { ...u, blankBefore: false } : u));
    const prev = flat[at];
    if (!prev) blocks.unshift(run);
    else if (prev.ui < blocks[prev.bi]!.length - 1 || (endsInList(prev.u) && run[0]!.kind === 'list-item')) {
      blocks[prev.bi]!.splice(prev.ui + 1, 0, ...listed);
      this.after = listed[listed.length - 1]!;
      return listed;
    } else blocks.splice(prev.bi + 1, 0, run);
    this.after = run[run.length - 1]!;
    return run;
  }

  private append(run: Unit[]): Unit[] {
    this.node.blocks.push(run);
    this.after = run[run.length - 1]!;
    return run;
  }
}
