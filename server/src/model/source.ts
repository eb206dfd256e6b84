import { z } from 'zod';

/** What a scan finds: the instruction files, by path. The zod schemas are the one source of these types. */

/** A sha256, as lowercase hex. */
export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const SourceInfo = z.object({
  path: z.string(),
  /** Format id from the registry. */
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
