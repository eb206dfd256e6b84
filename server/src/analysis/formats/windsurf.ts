import { basename, folderOf, folderScope, globList, globScope, markdownFormat, ownerOf, stringField } from './markdown-format.js';

/** `.windsurfrules`: one flat file of rules. */
export const windsurfrules = markdownFormat({
  id: 'windsurfrules',
  detect: (rel) => basename(rel) === '.windsurfrules',
  meta: (rel) => folderScope(folderOf(rel)),
});

/** `s`: a name may hold a line break (LF, CR, U+2028, U+2029), which `.` alone does not match. */
const WINDSURF_RULE = /(^|\/)\.windsurf\/rules\/.+\.md$/s;

/** `.windsurf/rules/*.md`: front matter `trigger` (always_on, glob, model_decision, manual) and `globs`. */
export const windsurfRules = markdownFormat({
  id: 'windsurf-rules',
  detect: (rel) => WINDSURF_RULE.test(rel),
  meta: (rel, fm) => {
    const owner = ownerOf(rel, '.windsurf');
    const trigger = stringField(fm, 'trigger') ?? 'always_on';
    const description = stringField(fm, 'description');
    const globs = globList(fm?.data.globs);
    if (trigger === 'glob' && globs.length > 0) return { ...globScope(owner, globs), description };
    if (trigger === 'model_decision' || trigger === 'manual') return { scope: { kind: 'request', description }, description };
    return { ...folderScope(owner), description };
  },
});
