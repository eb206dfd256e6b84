import type { Unit } from '../../model/model.js';
import type { Found } from '../../model/problem.js';
import { charName, hiddenIn, showExcerpt } from '../../show/untrusted.js';

/**
 * Characters a person cannot see or that a terminal acts on (controls, ESC, a lone CR, bidi
 * controls, zero-width characters; see show/untrusted.ts), in any line of an instruction file: one
 * problem per line, naming each character. `Use p\u200bnpm` is not `Use pnpm`, whatever it looks like.
 */
export function findHiddenCharacters(units: Unit[]): Found[] {
  const problems: Found[] = [];
  for (const u of units) {
    for (let i = 0; i < u.lines.length; i++) {
      const line = u.lines[i]!;
      const hidden = hiddenIn(line);
      if (hidden.length === 0) continue;
      problems.push({
        type: 'ambiguity',
        kind: 'hidden-character',
        description: `Hidden character${hidden.length > 1 ? 's' : ''} ${hidden.map(charName).join(', ')} in "${showExcerpt(line.replace(/^[ \t]+|[ \t]+$/g, ''), 80)}": the text is not what it looks like`,
        locations: [{ path: u.path, line: u.line + i }],
      });
    }
  }
  return problems;
}
