import type { FormatId } from '../../model/formats.js';
import type { YamlParse } from '../../model/frontmatter.js';
import type { InstructionDoc } from '../../model/model.js';
import type { ReadableSource } from '../../repo/source-file.js';

/**
 * A format is one module that detects its files and parses them into the shared model. Formats do
 * not write: Copilot's layout is rendered from the model in `planning/` (`plan.ts`, `render/`).
 * Adding a format is adding its row to the registry (model/formats.ts), its module here, and its
 * line in `registry.ts`.
 */
export interface Format {
  /** Stable id, reported as a source's `kind`. */
  id: FormatId;
  /** Human name for reports. */
  title: string;
  /** Whether a repository-relative path (with `/`) is a file of this format. */
  detect(relPath: string): boolean;
  /** Whether a file of this format with these lines has front matter that needs the YAML parser (model/frontmatter.ts): the scan loads it first. */
  needsYaml(lines: string[]): boolean;
  /**
   * Parse a readable file into the model, keeping every line with its provenance: its lines when the
   * caller split them already, and the YAML parser when `needsYaml` said so.
   */
  parse(file: ReadableSource, read?: { lines?: string[]; yaml?: YamlParse }): InstructionDoc;
}
