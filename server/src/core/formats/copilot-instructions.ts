import type { Format } from './types.js';
import { splitUnits } from '../markdown-units.js';
import { splitText } from '../text.js';

export const COPILOT_INSTRUCTIONS_PATH = '.github/copilot-instructions.md';

/** `.github/copilot-instructions.md`: repo-wide Markdown, the file every Copilot client reads. */
export const copilotInstructions: Format = {
  id: 'copilot-instructions',
  title: 'Copilot repository instructions',
  detect: (rel) => rel === COPILOT_INSTRUCTIONS_PATH,
  parse(file) {
    const text = splitText(file.text);
    return { path: file.path, kind: 'copilot-instructions', scope: { kind: 'repo' }, units: splitUnits(file.path, text.lines) };
  },
};
