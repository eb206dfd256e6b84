import { basename, folderOf, folderScope, globList, globScope, markdownFormat, ownerOf, stringField, truthy } from './markdown-format.js';

/** `.cursorrules`: one flat file of rules for the folder it sits in. */
export const cursorrules = markdownFormat({
  id: 'cursorrules',
  detect: (rel) => basename(rel) === '.cursorrules',
  meta: (rel) => folderScope(folderOf(rel)),
});

/** `s`: a name may hold a line break (LF, CR, U+2028, U+2029), which `.` alone does not match. */
const CURSOR_RULE = /(^|\/)\.cursor\/rules(\/.+)?\.(mdc|md)$/s;

/**
 * `.cursor/rules/**\/*.mdc` (and `.md`): front matter `description`, `globs`, `alwaysApply`.
 * alwaysApply makes a rule repo-wide (for its folder); globs scope it; a description alone means
 * the agent applies it on request.
 */
export const cursorMdc = markdownFormat({
  id: 'cursor-rules',
  detect: (rel) => CURSOR_RULE.test(rel),
  meta: (rel, fm) => {
    const owner = ownerOf(rel, '.cursor');
    const description = stringField(fm, 'description');
    const globs = globList(fm?.data.globs);
    if (truthy(fm, 'alwaysApply') || !fm) return { ...folderScope(owner), description };
    if (globs.length > 0) return { ...globScope(owner, globs), description };
    return { scope: { kind: 'request', description }, description };
  },
});
