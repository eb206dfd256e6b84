import { escapedFolder } from '../../model/folder-glob.js';
import type { Scope } from '../../model/model.js';
import { folderScope, globList, markdownFormat, stringField } from './markdown-format.js';

/**
 * A sub-project's own `.github/copilot-instructions.md` and `.github/instructions/**\/*.instructions.md`
 * (`python/.github/instructions/python.instructions.md`). Copilot reads `.github/` at the repository's
 * root only, so in the repository these rules reach nobody: they are migrated like any legacy file, to
 * the root's `.github/instructions/` and scoped to the sub-project (its `applyTo` read from there).
 */
const NESTED = /^(.+?)\/\.github\/(?:copilot-instructions\.md|instructions\/(?:.+\/)?[^/]+\.instructions\.md)$/;

export const nestedCopilot = markdownFormat({
  id: 'nested-copilot',
  detect: (rel) => NESTED.test(rel),
  meta: (rel, fm) => {
    const owner = NESTED.exec(rel)![1]!;
    const description = stringField(fm, 'description');
    if (rel.endsWith('/.github/copilot-instructions.md')) return { ...folderScope(owner), description };
    const globs = globList(fm?.data.applyTo);
    const escaped = escapedFolder(owner);
    // Without `applyTo` the file is read on request; its folder is still where it speaks.
    if (globs.length === 0 || escaped === null) return { ...folderScope(owner), description };
    // `applyTo` is matched from the sub-project's root, where its `.github/` sits: from the repository's, it
    // is below the sub-project; a glob that already starts with the sub-project's folder was written from the root.
    const below = (g: string): string => {
      const bare = g.replace(/^\.?\//, '');
      if (bare.startsWith(`${owner}/`)) return bare;
      return bare === '**' || bare === '**/*' ? `${escaped}/**` : `${escaped}/${bare}`;
    };
    const scope: Scope = { kind: 'globs', globs: globs.map(below) };
    return { scope, description };
  },
});
