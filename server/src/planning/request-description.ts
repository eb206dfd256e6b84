import type { InstructionDoc } from '../model/model.js';
import { headingText, isFileNameTitle } from './outline.js';

/**
 * The description a rule file applied on request gets when its source has none (issue 40): Copilot
 * picks such a file by its description, and "Rules from .cursor/rules/agent.mdc" tells it nothing. In
 * the source's own words: a "Description:" line among its first lines (its first sentence), else its
 * title (a `# ` heading that opens it, not a file name), else its file's name ("theme-notes.mdc" →
 * "Theme notes"). Null when none of these reads as a short line.
 */
export function ownDescription(doc: Pick<InstructionDoc, 'path' | 'units'>): string | null {
  const units = doc.units.filter((u) => u.kind !== 'frontmatter');
  for (const line of units.slice(0, 4).flatMap((u) => (u.kind === 'code' ? [] : u.lines))) {
    const label = /^\s*(?:\*\*|__)?Description(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.+)$/i.exec(line);
    if (label) return short(label[1]!.split(/(?<=[.!?])\s/)[0]!.replace(/[.:;\s]+$/, ''));
  }
  const first = units[0];
  if (first?.kind === 'heading' && first.level === 1 && !isFileNameTitle(first.lines[0]!))
    return short(headingText(first.lines[0]!).replace(/[*_`]/g, ''));
  const stem = doc.path
    .slice(doc.path.lastIndexOf('/') + 1)
    .replace(/\.(mdc|md|txt)$/i, '')
    .replace(/^\d+[-_. ]+/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return short(stem.charAt(0).toUpperCase() + stem.slice(1));
}

const short = (s: string): string | null => {
  const t = s.trim();
  return t !== '' && t.length <= 200 && !/[\r\n\u2028\u2029]/.test(t) ? t : null;
};
