import { globList, markdownFormat, stringField } from './markdown-format.js';

export const INSTRUCTIONS_DIR = '.github/instructions';

/** `.github/instructions/**\/NAME.instructions.md`: path-scoped Copilot instructions (`applyTo`). */
export const copilotPathInstructions = markdownFormat({
  id: 'copilot-path-instructions',
  detect: (rel) => rel.startsWith(`${INSTRUCTIONS_DIR}/`) && rel.endsWith('.instructions.md'),
  meta: (_rel, fm) => {
    const globs = globList(fm?.data.applyTo);
    const description = stringField(fm, 'description');
    const excludeAgent = globList(fm?.data.excludeAgent);
    return {
      scope: globs.length > 0 ? { kind: 'globs', globs } : { kind: 'request', description },
      description,
      excludeAgent,
    };
  },
});
