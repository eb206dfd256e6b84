import { COPILOT_INSTRUCTIONS_PATH } from '../../analysis/formats/copilot-instructions.js';
import type { InstructionDoc, Unit } from '../../model/model.js';
import type { Merged } from '../../model/plan.js';
import { frontMatterFor, type Target } from '../targets.js';
import { appendAdditions, sectionStarts } from './append.js';
import { Assembly } from './assembly.js';
import { managedBlocksWhole } from './managed.js';
import { managedBlocks } from '../../model/managed-blocks.js';
import { flatSectionName } from './flat-document.js';
import { sameSection } from '../structure.js';
import { GENERAL_SECTION } from '../section-topics.js';
import { bodyOf, renderBase } from './body.js';
import { asItIs, push, trimEnd, type Rendered } from './rendered.js';
import { WrittenUnits } from './written-units.js';
import { SectionLines, type TwinSection } from './twin-sections.js';

/** What rendering a target reads: source lines by path, and whether a document is organised in sections already. */
export interface TargetSources {
  linesOf: (path: string) => string[];
  structured: (path: string) => boolean;
}

/**
 * A target file as the plan writes it, before lines are dropped and marks inserted: Copilot's own
 * file assembled from its existing text and the legacy documents, a scoped file as its existing text
 * (or front matter) with each document's body after it. `merged` receives every unit merged into a copy.
 */
export function renderTarget(
  sources: TargetSources,
  target: Target,
  existingDoc: InstructionDoc | undefined,
  merged: Merged[],
  /** Receives each source section that repeats most of a section written already (Copilot's file). */
  twins: TwinSection[] = [],
): Rendered {
  // Every unit of the existing file, repeats too: legacy files merge into these copies, one each.
  const written = new WrittenUnits();
  // A managed block is one unit there too, so a block a migration moved is found again whole.
  if (existingDoc) for (const u of managedBlocksWhole(existingDoc.units, sources.linesOf(existingDoc.path))) written.add(u);
  if (target.path === COPILOT_INSTRUCTIONS_PATH) return renderCopilot(sources, target, existingDoc, written, merged, twins);
  const out: Rendered = existingDoc
    ? asItIs(existingDoc.path, sources.linesOf(existingDoc.path))
    : { lines: frontMatterFor(target), refs: frontMatterFor(target).map(() => null) };
  for (const doc of existingDoc ? target.docs : headingLessFirst(target.docs)) {
    if (doc.units.length === 0) continue; // front matter only: nothing to carry over
    const units = managedBlocksWhole(doc.units, sources.linesOf(doc.path));
    const body = bodyOf(doc.path, sources.linesOf(doc.path), units[0]!.line - 1, units, written, merged);
    if (body.lines.length === 0) continue;
    trimEnd(out);
    const lead = leadHeading(out.lines, body.lines, doc);
    push(out, { lines: ['', ...lead, ...body.lines], refs: [null, ...lead.map(() => null), ...body.refs] });
  }
  return out;
}

const HEADING = /^ {0,3}(#{1,6})\s+\S/;

/**
 * A new scoped file's sources, those without a heading or a name of their own first (in their order),
 * then the others: such a body written first needs no heading, where after another file's sections it
 * would go under the tool's "General", a heading the source never had (issue 40). A rule file named
 * after its subject keeps its place and its name. Each source's lines stay together, in their order.
 */
const headingLessFirst = (docs: InstructionDoc[]): InstructionDoc[] => {
  const flat = docs.filter((d) => !d.units.some((u) => u.kind === 'heading') && flatSectionName(d) === null);
  return [...flat, ...docs.filter((d) => !flat.includes(d))];
};

/**
 * The heading a body appended to a file with sections goes under, with the blank line after it, or
 * nothing: a body that does not open with a heading at the file's top section level would read as
 * part of the file's last subsection (issue 40). Named by the body's description or rule file name,
 * else General; never a name the file has already.
 */
function leadHeading(file: string[], body: string[], doc: InstructionDoc): string[] {
  const levels = headingLevels(file).filter((l) => l >= 2);
  if (levels.length === 0) return [];
  const top = Math.min(...levels);
  const first = HEADING.exec(body.find((l) => l.trim() !== '') ?? '');
  if (first && first[1]!.length <= top) return [];
  // A guess at the topic of a few lines misnames them more often than not: General says no more than it knows.
  const named = flatSectionName(doc) ?? GENERAL_SECTION.title;
  const taken = file.some((l) => HEADING.test(l) && sameSection(l, named));
  return [`${'#'.repeat(top)} ${taken ? GENERAL_SECTION.title : named}`, ''];
}

/** The levels of a file's headings outside fenced code. */
function headingLevels(lines: string[]): number[] {
  const out: number[] = [];
  let fence: string | null = null;
  for (const l of lines) {
    const f = /^\s*(`{3,}|~{3,})/.exec(l);
    if (f) fence = fence === null ? f[1]! : l.trim().startsWith(fence) ? null : fence;
    else if (fence === null) {
      const h = HEADING.exec(l);
      if (h) out.push(h[1]!.length);
    }
  }
  return out;
}

function renderCopilot(
  sources: TargetSources,
  target: Target,
  existingDoc: InstructionDoc | undefined,
  written: WrittenUnits,
  merged: Merged[],
  twins: TwinSection[],
): Rendered {
  const base: Rendered = existingDoc
    ? renderBase(existingDoc.path, sources.linesOf(existingDoc.path))
    : { lines: ['# Copilot instructions'], refs: [null] };
  const lines = new SectionLines();
  // The person's sections, each unit under the heading it stands under.
  let heading: Unit | null = null;
  for (const u of existingDoc?.units ?? []) {
    if (u.kind === 'heading') heading = u;
    else lines.add(heading, u);
  }
  const assembly = new Assembly(
    written,
    merged,
    sectionStarts(base.lines).map((i) => base.lines[i]!),
    lines,
    twins,
  );
  // Front matter a format reads is not among its units; a `---` block left there is content (.cursorrules has none).
  for (const doc of target.docs) assembly.addDocument(managedBlocksWhole(doc.units, sources.linesOf(doc.path)), flatSectionName(doc));
  const out = appendAdditions(base, assembly.additions(), target.path, existingDoc !== undefined);
  return existingDoc ? out : untitledBeforeTitledBlock(out);
}

/**
 * A new file that opens with a managed block holding its own `# ` title (usage_rules' "# Usage Rules")
 * needs no title of the tool's above it: the block is written byte for byte, so the file would open
 * with two titles, the tool's left empty.
 */
function untitledBeforeTitledBlock(r: Rendered): Rendered {
  const first = r.lines.findIndex((l, i) => i > 0 && l.trim() !== '');
  const block = first < 0 ? undefined : managedBlocks(r.lines).find((b) => b.start === first);
  if (r.refs[0] !== null || !block || !r.lines.slice(block.start, block.end + 1).some((l) => /^#\s/.test(l))) return r;
  return { lines: r.lines.slice(first), refs: r.refs.slice(first) };
}
