import { FORMAT_IDS, type FormatId } from '../../model/formats.js';
import type { Format } from './types.js';
import { copilotInstructions } from './copilot-instructions.js';
import { copilotPathInstructions } from './copilot-path-instructions.js';
import { agentsMd, claudeMd, conventionsMd, geminiMd } from './agent-md.js';
import { claudeRules } from './claude-rules.js';
import { cursorMdc, cursorrules } from './cursor.js';
import { windsurfRules, windsurfrules } from './windsurf.js';
import { clinerules } from './cline.js';
import { roorules } from './roo.js';
import { nestedCopilot } from './nested-copilot.js';

/** Each format id's module: the registry's facts (model/formats.ts) are the data, these the code. */
const MODULES: Readonly<Record<FormatId, Format>> = {
  'copilot-instructions': copilotInstructions,
  'copilot-path-instructions': copilotPathInstructions,
  'agents-md': agentsMd,
  'claude-md': claudeMd,
  'claude-rules': claudeRules,
  'gemini-md': geminiMd,
  cursorrules,
  'cursor-rules': cursorMdc,
  windsurfrules,
  'windsurf-rules': windsurfRules,
  clinerules,
  roorules,
  'conventions-md': conventionsMd,
  'nested-copilot': nestedCopilot,
};

/** Every known format, in the order their files are reported and merged (the registry's `FORMAT_IDS`). */
export const FORMATS: readonly Format[] = FORMAT_IDS.map((id) => MODULES[id]);

/**
 * What every format's file name ends in: `.md`, `.mdc` or `.txt` (`.clinerules/` takes any case), or
 * `rules` (`.cursorrules`, `.windsurfrules`, `.clinerules`, `.roorules`). A path that ends otherwise is
 * none of them, and is not tried against each (a scan asks this of every file git lists).
 */
const MAYBE_INSTRUCTIONS = /(?:\.md|\.mdc|\.txt|rules)$/i;

export function formatFor(relPath: string): Format | undefined {
  if (!MAYBE_INSTRUCTIONS.test(relPath)) return undefined;
  // Only a Cursor rule's name ends in `.mdc`: such a file (hundreds in some repositories) is tried against it alone.
  if (relPath.endsWith('.mdc')) return cursorMdc.detect(relPath) ? cursorMdc : undefined;
  return FORMATS.find((f) => f.detect(relPath));
}

/** Order of formats, for sorting sources deterministically. */
export function formatRank(id: FormatId): number {
  return RANKS.get(id)!;
}

const RANKS = new Map(FORMAT_IDS.map((id, i) => [id, i]));
