import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { readFrontMatter } from '../../server/src/model/frontmatter.js';
import { analyze } from '../../server/src/analysis/analyze.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { openSession, outcomeOf } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, readState, sandbox, writeFile } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';
const runs = Number(process.env.FUZZ_RUNS ?? 60);
const oddText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constant('\u0000\u202e\ud800'),
  fc.string({ minLength: 5000, maxLength: 20000 }),
);
const anyValue = fc.oneof(
  fc.boolean(),
  fc.integer(),
  fc.double(),
  oddText,
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

test('fuzz: tool arguments other than none are invalid params, and change nothing', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, {
    repo,
    elicit: () => ({ action: 'accept', content: { approved: true, confirmed: true, understood_risks: true } }),
  });
  const before = hashTree(repo);
  const tools = [
    'onboarding_analyze',
    'onboarding_propose',
    'onboarding_approve',
    'onboarding_migrate',
    'onboarding_rollback',
    'onboarding_status',
  ];
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...tools),
      fc.dictionary(
        oddText.filter((k) => k.length > 0),
        anyValue,
        { minKeys: 1, maxKeys: 4 },
      ),
      async (tool, args) => {
        await assert.rejects(s.call(tool, args), (err: { code?: number }) => err.code === -32602);
      },
    ),
    { numRuns: runs },
  );
  assert.equal(s.elicitations.length, 0, 'no forged argument reached the person');
  assert.deepEqual(hashTree(repo), before);
});

test('fuzz: any elicitation answer gives a contract outcome, and only a real yes approves', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  let next: unknown = null;
  const s = await openSession(t, { repo, elicit: () => next as never });
  await s.call('onboarding_propose');
  const before = hashTree(repo);
  const answer = fc.oneof(
    fc.record(
      {
        action: fc.constantFrom('accept', 'decline', 'cancel'),
        content: fc.dictionary(fc.constantFrom('approved', 'comment', 'legacy_1', 'conflict_1', 'extra', '__proto__'), anyValue, {
          maxKeys: 4,
        }),
      },
      { requiredKeys: ['action'] },
    ),
    fc.record({ action: oddText }),
    fc.record({ action: fc.constant('accept'), content: fc.record({ approved: fc.constant(true), comment: oddText }) }),
  );
  const seen = new Set<string>();
  await fc.assert(
    fc.asyncProperty(answer, async (a) => {
      next = a;
      const stateBefore = readState(repo);
      const r = await s.call('onboarding_approve');
      const outcome = outcomeOf(r);
      seen.add(outcome);
      assert.ok(['approved', 'declined', 'cancelled', 'not_confirmed', 'invalid_response', 'error'].includes(outcome), outcome);
      const yes = a.action === 'accept' && (a as { content?: { approved?: unknown } }).content?.approved === true;
      if (outcome === 'approved') assert.ok(yes, `approved on ${JSON.stringify(a).slice(0, 200)}`);
      else assert.deepEqual(readState(repo)!.approval, stateBefore!.approval, 'a refusal does not touch the approval');
    }),
    { numRuns: runs },
  );
  assert.deepEqual(hashTree(repo), before, 'no repository file changed');
  t.diagnostic(`outcomes seen: ${[...seen].sort().join(', ')}`);
});

test('fuzz: front matter never throws', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(oddText, fc.constantFrom('---', 'globs: **/*.ts', 'globs:', '  - "a"', 'alwaysApply: true', ': :', '- -')), {
        maxLength: 12,
      }),
      (lines) => {
        const fm = readFrontMatter(['---', ...lines, '---', 'body']);
        assert.ok(fm === null || typeof fm.data === 'object');
      },
    ),
    { numRuns: runs * 5 },
  );
});

test('fuzz: random bytes and random Markdown in instruction files never crash the scan, analysis or plan', async (t) => {
  const repo = sandbox(t);
  const md = fc.array(
    fc.oneof(
      oddText,
      fc.constantFrom(
        '# T',
        '## S',
        '- Use pnpm.',
        '- Use npm.',
        '```',
        '---',
        '<!-- c -->',
        '  - nested',
        '1. one',
        '',
        '\r',
        'Never use semicolons.',
        'Always use semicolons.',
      ),
    ),
    { maxLength: 30 },
  );
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        md.map((l) => Buffer.from(l.join('\n'))),
        fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
      ),
      md,
      async (bytes, other) => {
        writeFile(repo, FILE, bytes);
        writeFile(repo, 'AGENTS.md', other.join('\r\n'));
        writeFile(repo, '.cursor/rules/x.mdc', `---\nglobs: ${other[0] ?? ''}\n---\n${other.join('\n')}`);
        const scan = await scanRepository(repo);
        const plan = buildPlan(scan, analyze(scan));
        for (const op of plan.operations) assert.ok(op.content === null || typeof op.content === 'string');
      },
    ),
    { numRuns: runs },
  );
});

test('fuzz: a random onboarding.json is reported as damaged, never reset, and nothing crashes', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, {
    repo,
    elicit: () => ({ action: 'accept', content: { approved: true, confirmed: true, understood_risks: true } }),
  });
  const stateFile = path.join(repo, '.copilot-state', 'onboarding.json');
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        oddText,
        fc.json(),
        fc.jsonValue().map((v) => JSON.stringify({ version: 1, step: 'approved', plan: v, approval: v, migrations: [v] })),
      ),
      async (text) => {
        fs.mkdirSync(path.dirname(stateFile), { recursive: true });
        fs.writeFileSync(stateFile, text);
        const status = await s.call('onboarding_status');
        assert.equal(outcomeOf(status), 'status');
        for (const tool of ['onboarding_propose', 'onboarding_migrate']) {
          const r = await s.call(tool);
          assert.ok(['proposed', 'error', 'precondition_failed'].includes(outcomeOf(r)), outcomeOf(r));
        }
        if ((status.structuredContent as { damaged: boolean }).damaged)
          assert.deepEqual(fs.readFileSync(stateFile), Buffer.from(text), 'a damaged state is left as it was');
      },
    ),
    { numRuns: Math.ceil(runs / 3) },
  );
});
