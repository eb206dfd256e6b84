import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SectionRepeats } from '../../server/src/planning/render/section-repeats.js';
import type { Unit } from '../../server/src/model/model.js';

/**
 * A bullet that is a rule and says again, word for word, what an earlier bullet of its list that is a
 * rule said, is written once (it maps to the first). Bullets too short to be rules ("- Yes.") and
 * numbered steps never do. The section's reader asks whether a bullet is a rule only of bullets whose
 * words come again: the answers must be the ones asking every bullet gave.
 */

const RULES = ['- Keep handlers small and typed.', '- Validate every request body.', '- Run the tests before you commit.'];
const NOT_RULES = ['- Yes.', '1. Install the dependencies first.', '- ---'];
const bullet = (text: string, line: number): Unit => ({ kind: 'list-item', path: 'AGENTS.md', line, lines: [text], blankBefore: false });

/** The answer asking every bullet whether it is a rule (the reference): the first rule bullet of each text, and the later ones to it. */
function reference(units: Unit[]): Map<number, number> {
  const isRule = (u: Unit) => RULES.includes(u.lines[0]!);
  const out = new Map<number, number>();
  const seen = new Map<string, Unit>();
  for (const u of units) {
    if (!isRule(u)) continue;
    const first = seen.get(u.lines[0]!);
    if (first) out.set(u.line, first.line);
    else seen.set(u.lines[0]!, u);
  }
  return out;
}

test('a list says a rule again: the repeat maps to the first rule bullet with its words, never a short bullet or a step', () => {
  let seed = 40;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const texts = [...RULES, ...NOT_RULES];
  let mapped = 0;
  for (let round = 0; round < 500; round++) {
    const units = Array.from({ length: 2 + next(10) }, (_, i) => bullet(texts[next(texts.length)]!, i + 1));
    const found = new SectionRepeats().find([{ units, blankBefore: false }]);
    const got = new Map([...found].map(([u, first]) => [u.line, first.line]));
    assert.deepEqual(got, reference(units), units.map((u) => u.lines[0]).join(' | '));
    mapped += got.size;
  }
  assert.ok(mapped > 200, `the lists held ${mapped} repeats`);
});
