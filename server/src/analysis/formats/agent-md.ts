import { FORMATS_FACTS } from '../../model/formats.js';
import { isClaudeRule } from './claude-rules.js';
import { basename, folderOf, folderScope, markdownFormat, stringField } from './markdown-format.js';

/**
 * AGENTS.md, CLAUDE.md, GEMINI.md and Aider's CONVENTIONS.md: plain Markdown, at the root or in any
 * folder. The name is matched exactly (case-sensitive). A file of that name inside `.claude/rules/` is
 * a Claude Code rule, not one of these.
 */
/** The last folder of a path when it is an assistant's own dot-folder (`.claude`, `.gemini`, `.agents`, …). */
const ASSISTANT_DOT_FOLDER =
  /(^|\/)\.(?:claude|gemini|agents?|codex|cursor|windsurf|junie|kiro|qwen|opencode|roo|continue|amazonq|aider|ai)$/;

function agentFile(id: 'agents-md' | 'claude-md' | 'gemini-md' | 'conventions-md') {
  const name = FORMATS_FACTS[id].folderFile;
  return markdownFormat({
    id,
    detect: (rel) => basename(rel) === name && !isClaudeRule(rel),
    meta: (rel, fm) => {
      // .claude/CLAUDE.md, .gemini/GEMINI.md, .agents/AGENTS.md belong to the folder that holds the
      // assistant's dot-folder: that is where the tool keeps its files, not what the rules are about.
      // Front matter (some teams add Cursor-style fields) does not change that; its description is kept.
      const folder = folderOf(rel).replace(ASSISTANT_DOT_FOLDER, '');
      return { ...folderScope(folder), description: stringField(fm, 'description') };
    },
  });
}

export const agentsMd = agentFile('agents-md');
export const claudeMd = agentFile('claude-md');
export const geminiMd = agentFile('gemini-md');
export const conventionsMd = agentFile('conventions-md');
