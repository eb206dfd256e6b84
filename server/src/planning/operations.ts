import { createTwoFilesPatch } from 'diff';
import type { ScanResult } from '../analysis/discovery/scan.js';
import { sha256 } from '../common/hash.js';
import { splitText, type TextLines } from '../common/text.js';
import type { InstructionDoc } from '../model/model.js';
import type { PlanOperation } from '../model/plan.js';
import { COPILOT_SIZE_WARNING_CHARS } from './note-words.js';
import type { LongFile } from './notes.js';

/** The operation that turns `before` (null: no file) into `after` (null: removed), with its diff. */
export function operation(p: string, before: string | null, beforeSha: string | null, after: string | null): PlanOperation {
  return {
    op: before === null ? 'create' : after === null ? 'delete' : 'update',
    path: p,
    content: after,
    beforeSha256: beforeSha,
    afterSha256: after === null ? null : sha256(Buffer.from(after, 'utf8')),
    diff: createTwoFilesPatch(
      before === null ? '/dev/null' : `a/${p}`,
      after === null ? '/dev/null' : `b/${p}`,
      before ?? '',
      after ?? '',
      undefined,
      undefined,
      { context: 3 },
    ),
  };
}

/** The byte order mark and line ending of a document's file (a new file: none, and `\n`). */
export function textStyle(scan: ScanResult, doc: InstructionDoc | undefined): Omit<TextLines, 'lines' | 'finalNewline'> {
  if (!doc) return { bom: false, eol: '\n' };
  const t = splitText(scan.files.get(doc.path)!.text);
  return { bom: t.bom, eol: t.eol };
}

/** A written file past the size worth a warning that the plan makes longer; else null. */
export function sizeOver(p: string, after: string, before: string | null): LongFile | null {
  if (after.length <= COPILOT_SIZE_WARNING_CHARS || (before !== null && after.length <= before.length)) return null;
  return {
    path: p,
    bytes: Buffer.byteLength(after, 'utf8'),
    lines: splitText(after).lines.length,
    bytesBefore: before === null ? null : Buffer.byteLength(before, 'utf8'),
  };
}
