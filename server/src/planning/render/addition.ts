import type { Unit } from '../../model/model.js';
import type { Merged } from '../../model/plan.js';

/**
 * A section to add to a target: its heading, the blocks right under it, and its sub-sections. The
 * top-level additions are `## ` sections; one addition (`top`) holds what goes right under the
 * target's head, before its first section.
 */
export interface Addition {
  heading: string;
  /** The source heading unit (as written: moved down with its tree) when the section comes from a source, null when the tool names it. */
  headingUnit: Unit | null;
  blocks: Unit[][];
  children: Addition[];
  /** Blocks written right above the heading: the `# ` title (kept as a comment) of the document whose first chapter this is. */
  before?: Unit[][];
  /** What goes under the target's head, before its first section: rules that matched no topic, a file's intro. */
  top?: boolean;
  /** The `## ` heading line of the target's own section this addition's content goes to the end of. */
  intoTarget?: string;
  /** The blocks merged away into copies another file wrote: put back should the heading stand alone. */
  mergedAway?: MergedBlock[];
  /** Sub-sections merged away whole, heading and all: put back should this heading stand alone. */
  pruned?: PrunedSection[];
}

/** A block of a section merged away into copies another file wrote: its units, and their entries in `merged`. */
export interface MergedBlock {
  units: Unit[];
  entries: Merged[];
}

/** A sub-section merged away whole: where it stood, and the entry that merged its heading. */
export interface PrunedSection {
  child: Addition;
  index: number;
  entry: Merged;
}
