import type { InstructionDoc } from '../../model/model.js';
import type { ReadableSource } from '../../repo/source-file.js';

/**
 * A format is one module that detects its files and parses them into the shared model. Formats do
 * not write: Copilot's layout is rendered from the model in `planning/` (`plan.ts`, `assemble.ts`).
 * Adding a format is adding a module and a registry line.
 */
export interface Format {
  /** Stable id, reported as a source's `kind`. */
  id: string;
  /** Human name for reports. */
  title: string;
  /** Whether a repository-relative path (with `/`) is a file of this format. */
  detect(relPath: string): boolean;
  /** Parse a readable file into the model, keeping every line with its provenance. */
  parse(file: ReadableSource): InstructionDoc;
}
