import type { Format } from './types.js';
import { copilotInstructions } from './copilot-instructions.js';

/** Every known format, in the order they are reported. */
export const FORMATS: readonly Format[] = [copilotInstructions];

/** Paths that are checked directly, for formats with a fixed location. */
export const FIXED_PATHS: readonly string[] = ['.github/copilot-instructions.md'];

export function formatFor(relPath: string): Format | undefined {
  return FORMATS.find((f) => f.detect(relPath));
}
