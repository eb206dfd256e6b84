import { globList, globScope, folderScope, markdownFormat, stringField } from './markdown-format.js';

const CLAUDE_RULES = /(^|\/)\.claude\/rules\//;

/** Whether a path is a Markdown file inside a `.claude/rules/` folder: a rule, whatever its name. */
export const isClaudeRule = (rel: string): boolean => CLAUDE_RULES.test(rel) && rel.endsWith('.md');

/**
 * `.claude/rules/**\/*.md` (Claude Code; VS Code reads them too): front matter `paths` (a list, or a
 * comma-separated string, of globs relative to the folder that holds `.claude/`) scopes a rule;
 * without it the rule always applies to that folder. `description` is kept.
 */
export const claudeRules = markdownFormat({
  id: 'claude-rules',
  detect: isClaudeRule,
  meta: (rel, fm) => {
    const owner = rel.slice(0, CLAUDE_RULES.exec(rel)!.index);
    const description = stringField(fm, 'description');
    const paths = globList(fm?.data.paths);
    if (paths.length > 0) return { ...globScope(owner, paths), description };
    return { ...folderScope(owner), description };
  },
});
