import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { linkDestinations, movablePaths, pathReferences } from '../../server/src/model/links.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Paths written without a Markdown link (issue 40): an `@path` reference in a sentence and a code span
 * holding one `./` or `../` path are relative to their file like a link, so a move rewrites them the
 * same way; a mention that names nothing (`@v2.1`), a command (`./gradlew`) and code blocks stay.
 */
test('the path references of one line: @paths in prose, ./ and ../ code spans; not mentions, commands or code', () => {
  const found = (line: string) => pathReferences(line).map((d) => `${d.form}:${line.slice(d.start, d.end)}${d.explicit ? '!' : ''}`);
  assert.deepEqual(found('Follow @../core/POLICY.md , and read @docs/style.md.'), ['at:../core/POLICY.md!', 'at:docs/style.md']);
  assert.deepEqual(found('See `./.github/skills/run/SKILL.md` and `../shared/`'), [
    'code:./.github/skills/run/SKILL.md!',
    'code:../shared/!',
  ]);
  assert.deepEqual(found('Run `./gradlew build`, `./gradlew`, `../tools/check.sh`, `npm test`; the extra `../` is one level.'), []);
  assert.deepEqual(found('Mail me@example.com, ping @alice, use `@./x.md`, pin @v2 and (@lib/a.md)'), ['at:lib/a.md']);
});

test('movablePaths passes over a line with no candidate, and finds what the two readers find in every other line', () => {
  const longWay = (line: string) =>
    [...linkDestinations(line).map((d) => ({ ...d, explicit: true })), ...pathReferences(line)]
      .sort((a, b) => a.start - b.start)
      .map((d) => [d.start, d.end, d.explicit]);
  const shortWay = (line: string) => movablePaths(line).map((d) => [d.start, d.end, d.explicit]);
  const lines = [
    'Keep module 4 handler 2 small, typed and covered by a focused test.',
    'See [the guide](docs/guide.md) and ![a](<img/a b.png> "t").',
    '[id]: ../shared/POLICY.md',
    '<a href="docs/x.md">x</a> <img src=\'y.png\'>',
    'Follow @../core/POLICY.md and `./docs/checklist.md`, not `./gradlew`.',
  ];
  // Lines made of the characters the readers look for, at random (seeded): the shortcut must never skip one they read.
  let seed = 38;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const parts = ['](', ']:', '[a', ')', '@', '`', './', '../', 'x.md', ' ', 'href=', 'src =', '"d/e.md"', '<', '>', 'docs/', 'word', ':'];
  for (let i = 0; i < 3000; i++)
    lines.push(Array.from({ length: 1 + Math.floor(next() * 8) }, () => parts[Math.floor(next() * parts.length)]!).join(''));
  let found = 0;
  for (const line of lines) {
    assert.deepEqual(shortWay(line), longWay(line), line);
    if (longWay(line).length > 0) found++;
  }
  assert.ok(found > 100, `the random lines held ${found} paths`);
});

const FILES = {
  'services/api/AGENTS.md':
    '# API service\n\n## Docs\n\n' +
    '- Follow @../shared/POLICY.md before changing handlers.\n' +
    '- The build steps are in `./.agents/skills/build/SKILL.md`; the schema is in `../shared/schema/`.\n' +
    '- Run `./gradlew test` from this folder; ask @maintainers; see @ROADMAP.md and `./missing/NOTES.md`.\n\n' +
    '```sh\ncat ./.agents/skills/build/SKILL.md\n```\n',
  'services/api/.agents/skills/build/SKILL.md': '# Build\n',
  'services/api/gradlew': '#!/bin/sh\n',
  'services/api/ROADMAP.md': '# Roadmap\n',
  'services/shared/POLICY.md': '# Policy\n',
  'services/shared/schema/a.json': '{}\n',
  'CLAUDE.md': '# Repo\n\n## Reading\n\n- Read @docs/arch.md first; the checklist is `./docs/checklist.md`.\n',
  'docs/arch.md': '# Architecture\n',
  'docs/checklist.md': '# Checklist\n',
};

test('moved into Copilot files, @path references become links and ./ ../ code-span paths lead to the same repository path; the rest stays', async (t) => {
  const repo = sandbox(t, FILES);
  const plan = buildPlan(await scanRepository(repo));
  const content = (p: string) => plan.operations.find((o) => o.path === p)?.content ?? '';
  const api = content('.github/instructions/services-api.instructions.md');
  assert.ok(api.includes('- Follow [services/shared/POLICY.md](../../services/shared/POLICY.md) before changing handlers.\n'), api);
  assert.ok(
    api.includes(
      '- The build steps are in `../../services/api/.agents/skills/build/SKILL.md`; the schema is in `../../services/shared/schema/`.\n',
    ),
    api,
  );
  // A command is read from where it runs; a mention names nothing; a `./` path that is not there still
  // names a path from its folder: rewritten, and named in a note.
  assert.ok(
    api.includes(
      '- Run `./gradlew test` from this folder; ask @maintainers; see [services/api/ROADMAP.md](../../services/api/ROADMAP.md) and `../../services/api/missing/NOTES.md`.\n',
    ),
    api,
  );
  assert.ok(api.includes('```sh\ncat ./.agents/skills/build/SKILL.md\n```\n'), api);
  const root = content('.github/copilot-instructions.md');
  assert.ok(root.includes('- Read [docs/arch.md](../docs/arch.md) first; the checklist is `../docs/checklist.md`.'), root);
  const note = plan.notes.find((n) => n.startsWith('services/api/AGENTS.md: one link'));
  assert.ok(note, plan.notes.join('\n'));
  assert.match(note, /line 7 "\.\/missing\/NOTES\.md" \(written "\.\.\/\.\.\/services\/api\/missing\/NOTES\.md", the same path from/);
  assert.ok(!plan.notes.some((n) => n.includes('"maintainers"')), plan.notes.join('\n'));
});
