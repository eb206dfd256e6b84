import { markdownFormat } from './markdown-format.js';

export const COPILOT_INSTRUCTIONS_PATH = '.github/copilot-instructions.md';

/** `.github/copilot-instructions.md`: repo-wide Markdown, the file every Copilot client reads. */
export const copilotInstructions = markdownFormat({
  id: 'copilot-instructions',
  detect: (rel) => rel === COPILOT_INSTRUCTIONS_PATH,
  meta: () => ({ scope: { kind: 'repo' } }),
});
