import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';
import { runCheck } from '../../server/src/steps/check.js';

/**
 * A pointer at rules the plan moves leads where they now are (issue 40, sentry-java's "read the matching
 * rule file in `.cursor/rules/`" and its table sent Copilot to the Cursor files): a link, an `mdc:` link
 * or a code span that is a path, naming a moved file or a folder all of whose files move, is rewritten to
 * the file the plan writes; prose mentions, a folder that holds other files, and a pointer at a file whose
 * rules land where the line itself does stay. A second plan has nothing to do, and check finds no drift.
 */
const FILES = {
  'AGENTS.md':
    '# Agents\n\n## Rules\n\n' +
    'Before working on an area, read the matching rule file in `.cursor/rules/`:\n\n' +
    '- API: the [api rules](.cursor/rules/api.mdc#errors).\n' +
    '- Style: see [style](mdc:.cursor/rules/style.mdc).\n' +
    '- Layout: `.cursor/rules/style.mdc` and the [guide](docs/guide.md).\n' +
    '- Web: the [web rules](web/AGENTS.md), and `docs/` for the rest.\n' +
    "- The .cursor/rules folder is Cursor's own.\n",
  '.cursor/rules/api.mdc': '---\ndescription: API rules\nglobs: src/api/**\nalwaysApply: false\n---\n\n- Validate request bodies.\n',
  '.cursor/rules/style.mdc': '---\ndescription: Style\nglobs: "**/*.ts"\nalwaysApply: false\n---\n\n- Prefer small functions.\n',
  'docs/guide.md': '# Guide\n',
  'web/AGENTS.md': '# Web\n\n## Build\n\n- Run the web build with vite.\n- Read [AGENTS.md](../AGENTS.md) first.\n',
  'CLAUDE.md': '# Claude\n\n## Start\n\n- Read [AGENTS.md](AGENTS.md) before you start.\n- Keep commits small.\n',
};

const COPILOT =
  '# Copilot instructions\n\n## Agents\n\n### Rules\n\n' +
  'Before working on an area, read the matching rule file in `.github/instructions/`:\n\n' +
  '- API: the [api rules](instructions/api.instructions.md#errors).\n' +
  '- Style: see [style](instructions/style.instructions.md).\n' +
  '- Layout: `.github/instructions/style.instructions.md` and the [guide](../docs/guide.md).\n' +
  '- Web: the [web rules](instructions/web.instructions.md), and `docs/` for the rest.\n' +
  "- The .cursor/rules folder is Cursor's own.\n\n" +
  '## Claude\n\n### Start\n\n' +
  // CLAUDE.md's rules land in the same file as AGENTS.md's: its pointer still leads where it led.
  '- Read [AGENTS.md](../AGENTS.md) before you start.\n- Keep commits small.\n';

test('a pointer at a moved rules folder, file or mdc: link leads to where the plan writes those rules; a second plan has nothing to do, check no drift', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  const read = (p: string) => fs.readFileSync(path.join(repo, p), 'utf8');
  assert.equal(read('.github/copilot-instructions.md'), COPILOT);
  assert.equal(
    read('.github/instructions/web.instructions.md'),
    '---\napplyTo: "web/**"\n---\n\n# Web\n\n## Build\n\n- Run the web build with vite.\n- Read [AGENTS.md](../copilot-instructions.md) first.\n',
  );
  // The legacy files stay as they were (kept, the default).
  for (const [p, text] of Object.entries(FILES)) assert.equal(read(p), text, p);

  const again = (await s.call('onboarding_propose')).structuredContent as { operations: unknown[] };
  assert.deepEqual(again.operations, [], 'a second plan has nothing to do');
  const report = await runCheck(repo);
  assert.deepEqual(
    report.findings.filter((f) => f.rule === 'drift' || f.rule === 'would-change').map((f) => f.message),
    [],
  );
});

test('a folder that holds other files than the moved rules is no pointer at them; a file the plan does not write is not pointed at', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md':
      '# Agents\n\n## Rules\n\n- Read the rules in `.cursor/rules/` and [the notes](.cursor/rules/notes.txt).\n- Ask in [chat](README.md).\n',
    '.cursor/rules/api.mdc': '---\ndescription: API rules\nglobs: src/api/**\nalwaysApply: false\n---\n\n- Validate request bodies.\n',
    '.cursor/rules/notes.txt': 'not a rule\n',
    'README.md': '# Readme\n',
  });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(
    fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8'),
    '# Copilot instructions\n\n## Agents\n\n### Rules\n\n- Read the rules in `.cursor/rules/` and [the notes](../.cursor/rules/notes.txt).\n- Ask in [chat](../README.md).\n',
  );
});
