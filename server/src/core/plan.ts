import { createTwoFilesPatch } from 'diff';
import { analyze, type Analysis, type Pattern, type Problem } from './analyze.js';
import { canonicalJson, sha256 } from './hash.js';
import type { ScanResult, SourceInfo } from './scan.js';
import { assertLossless, removeDuplicates, restructure, type Merged, type Provenance } from './structure.js';
import { joinText, splitText } from './text.js';

export interface PlanOperation {
  op: 'create' | 'update' | 'delete';
  path: string;
  /** New content, or null for a delete. */
  content: string | null;
  /** sha256 of the file before (null when it does not exist yet) and after (null when deleted). */
  beforeSha256: string | null;
  afterSha256: string | null;
  diff: string;
}

export interface Plan {
  planHash: string;
  pattern: Pattern;
  sources: SourceInfo[];
  operations: PlanOperation[];
  problems: Problem[];
  merged: Merged[];
  provenance: Provenance[];
  notes: string[];
}

/** Build the exact migration plan from a scan. Same sources give the same plan, byte for byte. */
export function buildPlan(scan: ScanResult, analysis: Analysis = analyze(scan)): Plan {
  const operations: PlanOperation[] = [];
  const merged: Merged[] = [];
  const provenance: Provenance[] = [];
  const notes: string[] = [];

  for (const doc of scan.docs) {
    const file = scan.files.get(doc.path)!;
    const text = splitText(file.text);
    let outLines: string[];
    let added: string[] = [];
    let docMerged: Merged[];
    if (analysis.structured[doc.path]) {
      ({ lines: outLines, merged: docMerged } = removeDuplicates(text.lines, doc.units));
    } else {
      const r = restructure(doc.path, doc.units);
      ({ lines: outLines, merged: docMerged, added } = r);
      provenance.push(...r.provenance);
    }
    assertLossless(text.lines, outLines, docMerged, added);
    const content = joinText({ ...text, lines: outLines, finalNewline: text.finalNewline || outLines.length > 0 });
    if (content === file.text) {
      notes.push(`${doc.path} is already organised in sections; nothing to change.`);
      continue;
    }
    merged.push(...docMerged);
    operations.push({
      op: 'update',
      path: doc.path,
      content,
      beforeSha256: file.sha256,
      afterSha256: sha256(Buffer.from(content, 'utf8')),
      diff: createTwoFilesPatch(`a/${doc.path}`, `b/${doc.path}`, file.text, content, undefined, undefined, { context: 3 }),
    });
  }
  for (const s of scan.skipped) notes.push(s.detail);
  if (scan.docs.length === 0 && scan.skipped.length === 0) notes.push('No instruction files were found; there is nothing to migrate.');
  if (analysis.problems.some((p) => p.type === 'contradiction')) {
    notes.push('Contradicting rules are kept as they are: the plan never picks a winner. Resolve them by editing the file.');
  }

  const planHash = hashPlan(analysis.sources, operations);
  return { planHash, pattern: analysis.pattern, sources: analysis.sources, operations, problems: analysis.problems, merged, provenance, notes };
}

/** The hash that an approval binds to: the sources read and every operation's exact content. */
export function hashPlan(sources: SourceInfo[], operations: PlanOperation[]): string {
  return sha256(
    canonicalJson({
      sources: sources.map((s) => ({ path: s.path, sha256: s.sha256 })),
      operations: operations.map((o) => ({ op: o.op, path: o.path, content: o.content, beforeSha256: o.beforeSha256 })),
    }),
  );
}
