import { isClaudeRule } from './claude-rules.js';
import { basename, folderOf, folderScope, markdownFormat, stringField } from './markdown-format.js';

/**
 * AGENTS.md, CLAUDE.md, GEMINI.md and Aider's CONVENTIONS.md: plain Markdown, at the root or in any
 * folder. The name is matched exactly (case-sensitive). A file of that name inside `.claude/rules/` is
 * a Claude Code rule, not one of these.
 */
function agentFile(id: string, name: string, title: string, extra: (rel: string) => boolean = () => false) {
  return markdownFormat({
    id,
    title,
    role: 'legacy',
    frontMatter: true,
    detect: (rel) => (basename(rel) === name || extra(rel)) && !isClaudeRule(rel),
    meta: (rel, fm) => {
      // .claude/CLAUDE.md belongs to the folder that holds .claude/; front matter (some teams add
      // Cursor-style fields) does not change that, but its description is kept.
      const folder = folderOf(rel).replace(/(^|\/)\.claude$/, '');
      return { scope: folderScope(folder), description: stringField(fm, 'description') };
    },
  });
}

export const agentsMd = agentFile('agents-md', 'AGENTS.md', 'AGENTS.md');
export const claudeMd = agentFile('claude-md', 'CLAUDE.md', 'CLAUDE.md');
export const geminiMd = agentFile('gemini-md', 'GEMINI.md', 'GEMINI.md');
export const conventionsMd = agentFile('conventions-md', 'CONVENTIONS.md', 'Aider conventions (CONVENTIONS.md)');
