import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, FINDERS, type Problem } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Second looks read no line where no two lines could be judged a pair (second-looks.ts mayPair): rule
 * files scoped to their own folders, each one list under one heading. These cases hold that the
 * places that can pair are still read: one scoped file with two headings, or with a list and a
 * paragraph, and two files whose folders meet. Names are made up.
 */

async function subjectPairs(t: TestContext, files: Record<string, string>): Promise<Problem[]> {
  const scan = await scanRepository(sandbox(t, files));
  return analyze(scan, FINDERS).problems.filter((p) => p.type === 'contradiction' && p.kind === 'subject');
}
const at = (p: Problem) => p.locations.map((l) => `${l.path}:${l.line}`);
const rule = (folder: string, body: string) =>
  `---\ndescription: Rules for ${folder}\nglobs: ${folder}/**\nalwaysApply: false\n---\n${body}`;
const padding = (from: number) =>
  Array.from({ length: 10 }, (_, i) => `- Topic${from + i} keeps item${from + i} near field${from + i}.`).join('\n');

test('one scoped file, two headings: `zorb check` under one, `quax check` under the other', async (t) => {
  const found = await subjectPairs(t, {
    '.cursor/rules/api.mdc': rule(
      'src/api',
      `# Build\n\n- Run \`zorb check\` before every push.\n${padding(0)}\n\n# Release\n\n- Run \`quax check\` before every push.\n${padding(20)}\n`,
    ),
  });
  assert.deepEqual(found.map(at), [['.cursor/rules/api.mdc:8', '.cursor/rules/api.mdc:22']]);
});

test('one scoped file, one heading: a list and a paragraph under it', async (t) => {
  const found = await subjectPairs(t, {
    '.cursor/rules/api.mdc': rule(
      'src/api',
      `# Build\n\nRun \`zorb check\` before every push.\n\n- Run \`quax check\` before every push.\n${padding(0)}\n`,
    ),
  });
  assert.deepEqual(found.map(at), [['.cursor/rules/api.mdc:8', '.cursor/rules/api.mdc:10']]);
});

test('rule files whose folders meet (one holds the other) are read; files scoped apart pair nothing', async (t) => {
  const apart = await subjectPairs(t, {
    '.cursor/rules/a.mdc': rule('src/a', `# A\n\n- Run \`zorb check\` before every push.\n${padding(0)}\n`),
    '.cursor/rules/b.mdc': rule('src/b', `# B\n\n- Run \`quax check\` before every push to main.\n${padding(20)}\n`),
  });
  assert.deepEqual(apart, []);
  const nested = await subjectPairs(t, {
    '.cursor/rules/a.mdc': rule('src', `# A\n\n- Run \`zorb check\` before every push.\n${padding(0)}\n`),
    '.cursor/rules/b.mdc': rule('src/b', `# B\n\n- Run \`quax check\` before every push to main.\n${padding(20)}\n`),
  });
  assert.deepEqual(nested.map(at), [['.cursor/rules/a.mdc:8', '.cursor/rules/b.mdc:8']]);
});
