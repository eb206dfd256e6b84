import type { Format } from './types.js';
import { copilotInstructions } from './copilot-instructions.js';
import { copilotPathInstructions } from './copilot-path-instructions.js';
import { agentsMd, claudeMd, conventionsMd, geminiMd } from './agent-md.js';
import { claudeRules } from './claude-rules.js';
import { cursorMdc, cursorrules } from './cursor.js';
import { windsurfRules, windsurfrules } from './windsurf.js';
import { clinerules } from './cline.js';
import { roorules } from './roo.js';

/** Every known format, in the order their files are reported and merged. */
export const FORMATS: readonly Format[] = [
  copilotInstructions,
  copilotPathInstructions,
  agentsMd,
  claudeMd,
  claudeRules,
  geminiMd,
  cursorrules,
  cursorMdc,
  windsurfrules,
  windsurfRules,
  clinerules,
  roorules,
  // After every tool's rules folder, so that `.cursor/rules/CONVENTIONS.md` stays a Cursor rule.
  conventionsMd,
];

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

const RANKS = new Map(FORMATS.map((f, i) => [f.id, i]));

/** Order of formats, for sorting sources deterministically (-1 for an unknown id). */
export function formatRank(id: string): number {
  return RANKS.get(id) ?? -1;
}
