import { z } from 'zod';
import { FORMAT_IDS } from './formats.js';

/** What a scan finds: the instruction files, by path. The zod schemas are the one source of these types. */

/** A sha256, as lowercase hex. */
export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** A format id of the registry (model/formats.ts). */
export const FormatIdSchema = z.enum(FORMAT_IDS);

export const SourceInfo = z.object({
  path: z.string(),
  /**
   * Format id from the registry, or `imported`. A string in the published schemas (as before the
   * registry): a stored plan or trace keeps whatever id it was written with.
   */
  kind: z.string(),
  bytes: z.number().int().min(0),
  /** null when the file could not be read. */
  sha256: Sha256.nullable(),
  /** The instruction file this one only points at (a symlink or an `@path` import), read once. */
  aliasOf: z.string().nullable().optional(),
  /** Why a file among the rules is not one (and is not migrated). */
  notRule: z.string().nullable().optional(),
});
export type SourceInfo = z.infer<typeof SourceInfo>;

/** A file left out of the scan (binary, oversized, not UTF-8, outside the repository), as analysis reports it. */
export const Skipped = z.object({ path: z.string(), reason: z.string(), detail: z.string() });
export type Skipped = z.infer<typeof Skipped>;
