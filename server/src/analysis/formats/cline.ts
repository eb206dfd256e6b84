import { basename, folderOf, folderScope, globList, globScope, markdownFormat } from './markdown-format.js';

/** `s`: a name may hold a line break (LF, CR, U+2028, U+2029), which `.` alone does not match. */
const IN_FOLDER = /(^|\/)\.clinerules\/(.+)$/s;

/**
 * `.clinerules` as a file, or a `.clinerules/` folder of Markdown and text rules. Every file in the
 * folder is always on, unless its front matter has `paths`. READMEs and `workflows/` (slash-command
 * prompts) sit among the rules but are not rules: they are reported, not migrated.
 */
export const clinerules = markdownFormat({
  id: 'clinerules',
  detect: (rel) => basename(rel) === '.clinerules' || (IN_FOLDER.test(rel) && /\.(md|txt)$/i.test(rel)),
  meta: (rel, fm) => {
    const m = IN_FOLDER.exec(rel);
    if (!m) return folderScope(folderOf(rel));
    const owner = rel.slice(0, m.index);
    const inner = m[2]!;
    let notRule: string | null = null;
    if (/^readme(\.[a-z]+)?$/i.test(basename(inner))) notRule = 'a README inside the rules folder, not a rule';
    else if (inner.startsWith('workflows/')) notRule = 'a Cline workflow (a slash-command prompt), not an always-on rule';
    const paths = globList(fm?.data.paths);
    // A README or a workflow is left out for what it is; otherwise for a folder applyTo cannot say.
    const at = paths.length > 0 ? globScope(owner, paths) : folderScope(owner);
    return { ...at, notRule: notRule ?? at.notRule ?? null };
  },
});
