import { COPILOT_INSTRUCTIONS_PATH } from '../../analysis/formats/copilot-instructions.js';
import type { InstructionDoc } from '../../model/model.js';
import type { Merged } from '../../model/plan.js';
import { frontMatterFor, type Target } from '../targets.js';
import { appendAdditions, sectionStarts } from './append.js';
import { Assembly } from './assembly.js';
import { managedBlocksWhole } from './managed.js';
import { managedBlocks } from '../../model/managed-blocks.js';
import { flatSectionName } from './flat-document.js';
import { bodyOf, renderBase } from './body.js';
import { asItIs, push, trimEnd, type Rendered } from './rendered.js';
import { WrittenUnits } from './written-units.js';

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
export function renderTarget(sources: TargetSources, target: Target, existingDoc: InstructionDoc | undefined, merged: Merged[]): Rendered {
  // Every unit of the existing file, repeats too: legacy files merge into these copies, one each.
  const written = new WrittenUnits();
  // A managed block is one unit there too, so a block a migration moved is found again whole.
  if (existingDoc) for (const u of managedBlocksWhole(existingDoc.units, sources.linesOf(existingDoc.path))) written.add(u);
  if (target.path === COPILOT_INSTRUCTIONS_PATH) return renderCopilot(sources, target, existingDoc, written, merged);
  const out: Rendered = existingDoc
    ? asItIs(existingDoc.path, sources.linesOf(existingDoc.path))
    : { lines: frontMatterFor(target), refs: frontMatterFor(target).map(() => null) };
  for (const doc of target.docs) {
    if (doc.units.length === 0) continue; // front matter only: nothing to carry over
    const units = managedBlocksWhole(doc.units, sources.linesOf(doc.path));
    const body = bodyOf(doc.path, sources.linesOf(doc.path), units[0]!.line - 1, units, written, merged);
    if (body.lines.length === 0) continue;
    trimEnd(out);
    push(out, { lines: ['', ...body.lines], refs: [null, ...body.refs] });
  }
  return out;
}

function renderCopilot(
  sources: TargetSources,
  target: Target,
  existingDoc: InstructionDoc | undefined,
  written: WrittenUnits,
  merged: Merged[],
): Rendered {
  const base: Rendered = existingDoc
    ? renderBase(existingDoc.path, sources.linesOf(existingDoc.path))
    : { lines: ['# Copilot instructions'], refs: [null] };
  const assembly = new Assembly(
    written,
    merged,
    sectionStarts(base.lines).map((i) => base.lines[i]!),
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
