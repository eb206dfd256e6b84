import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, connect, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { connectV2, openV2, type Mode, type V2Session } from '../helpers/mcp-v2.js';
import { httpServer } from '../helpers/http.js';
import { hashTree, MESSY_INSTRUCTIONS, readTraces, sandbox, tempDir, type Cleanup } from '../helpers/sandbox.js';

/**
 * Both protocol eras from one server: a client pinned to 2026-07-28 (the v2 SDK's), one in auto
 * mode and one in legacy mode, against the 1.x client of a 2025 run. The person is asked at every
 * gate in each, and the files on disk come out the same.
 */

const FILES = {
  '.github/copilot-instructions.md': MESSY_INSTRUCTIONS,
  'AGENTS.md': '- Keep commits small.\n- Use pnpm.\n',
  'CLAUDE.md': '- Use pnpm.\n',
};
const FLOW = ['onboarding_analyze', 'onboarding_propose', 'onboarding_approve', 'onboarding_migrate', 'onboarding_rollback'];

interface Run {
  outcomes: string[];
  /** The work tree after migrate, and after rollback. */
  migrated: Record<string, string>;
  rolledBack: Record<string, string>;
  /** The forms shown, by their fields. */
  forms: string[];
  traces: string[];
  /** Each trace's era, revision and client name. */
  protocols: string[];
}

async function flow(repo: string, call: (name: string) => Promise<{ structuredContent?: unknown }>, forms: () => string[]): Promise<Run> {
  const outcomes: string[] = [];
  let migrated: Record<string, string> = {};
  for (const name of FLOW) {
    outcomes.push(outcomeOf((await call(name)) as never));
    if (name === 'onboarding_migrate') migrated = hashTree(repo);
  }
  return {
    outcomes,
    migrated,
    rolledBack: hashTree(repo),
    forms: forms(),
    traces: readTraces(repo, 'elicitation').map((t) => `${t.action}:${t.outcome}:round ${t.round}`),
    protocols: [...readTraces(repo, 'elicitation'), ...readTraces(repo, 'sampling')].map(
      (t) => `${t.protocol?.era} ${t.protocol?.revision} ${t.client?.name}`,
    ),
  };
}

const fieldsOf = (req: { requestedSchema?: { properties?: object } }) => Object.keys(req.requestedSchema?.properties ?? {}).join(',');

/** The 2025 run: the 1.x client over stdio. */
async function run2025(t: Cleanup): Promise<Run> {
  const repo = sandbox(t, FILES);
  const s = await connect({ repo, elicit: yesToAll });
  try {
    return await flow(
      repo,
      (n) => s.call(n),
      () => s.elicitations.map((r) => fieldsOf(r as never)),
    );
  } finally {
    await s.close();
  }
}

async function runV2(t: Cleanup, mode: Mode, transport: 'stdio' | 'http'): Promise<Run & { revision: string | undefined }> {
  const repo = sandbox(t, FILES);
  let s: V2Session;
  if (transport === 'http') {
    const server = await httpServer(t, ['--repo', repo]);
    s = await connectV2({ mode, elicit: yesToAll, http: { url: server.url, token: server.token } });
  } else {
    s = await connectV2({ mode, repo, elicit: yesToAll });
  }
  try {
    const run = await flow(
      repo,
      (n) => s.call(n),
      () => s.elicitations.map(fieldsOf),
    );
    return { ...run, revision: s.revision() };
  } finally {
    await s.close();
  }
}

const EXPECTED_OUTCOMES = ['analyzed', 'proposed', 'approved', 'migrated', 'rolled_back'];

for (const transport of ['stdio', 'http'] as const) {
  test(`over ${transport}, the v2 client pinned to 2026-07-28, in auto mode and in legacy mode runs the whole flow, asked at every gate, with the files of a 2025 run`, async (t) => {
    const before = await run2025(t);
    assert.deepEqual(before.outcomes, EXPECTED_OUTCOMES);
    assert.deepEqual(before.traces, [
      'approve:chosen:round 1',
      'approve:approved:round 2',
      'migrate:migrated:round 1',
      'rollback:rolled_back:round 1',
    ]);
    assert.deepEqual(new Set(before.protocols), new Set(['legacy 2025-11-25 test-client']));
    for (const mode of ['pin', 'auto', 'legacy'] as const) {
      const run = await runV2(t, mode, transport);
      assert.equal(run.revision, mode === 'legacy' ? '2025-11-25' : '2026-07-28', mode);
      assert.deepEqual(run.outcomes, EXPECTED_OUTCOMES, mode);
      assert.deepEqual(run.forms, before.forms, `${mode}: the same forms, in the same order`);
      assert.deepEqual(run.migrated, before.migrated, `${mode}: the migrated files, byte for byte`);
      assert.deepEqual(run.rolledBack, before.rolledBack, `${mode}: the files after rollback, byte for byte`);
      assert.deepEqual(run.traces, before.traces, `${mode}: one trace per exchange, as in 2025`);
      const era = mode === 'legacy' ? 'legacy 2025-11-25' : 'modern 2026-07-28';
      assert.deepEqual(
        new Set(run.protocols),
        new Set([`${era} v2-test-client`]),
        `${mode}: the era, revision and client name in every trace`,
      );
    }
  });
}

/** A 2026 session over stdio at the point where approve asks its first round, by hand. */
async function atApprove(t: Cleanup, env: Record<string, string> = {}) {
  const repo = sandbox(t, FILES);
  const s = await openV2(t, { mode: 'pin', repo, elicit: yesToAll, env });
  assert.equal(outcomeOf((await s.call('onboarding_propose')) as never), 'proposed');
  const first = await s.round('onboarding_approve');
  assert.equal(first.resultType, 'input_required');
  assert.deepEqual(Object.keys(first.inputRequests), ['q0']);
  return { repo, s, first };
}

const choices = { q0: { action: 'accept', content: {} } };
const approvedTraces = (repo: string) => readTraces(repo, 'elicitation').filter((x) => x.outcome === 'approved');

test('2026-07-28: approve goes round by round with the state it was given; the answer counts once', async (t) => {
  const { repo, s, first } = await atApprove(t);
  const second = await s.round('onboarding_approve', { inputResponses: choices, requestState: first.requestState });
  assert.equal(second.resultType, 'input_required');
  assert.deepEqual(Object.keys(second.inputRequests), ['q1']);
  assert.match(JSON.stringify(second.inputRequests.q1.params.requestedSchema), /"approved"/);
  const yes = { q1: { action: 'accept', content: { approved: true } } };
  const done = await s.round('onboarding_approve', { inputResponses: yes, requestState: second.requestState });
  assert.equal(done.structuredContent?.outcome, 'approved');
  assert.equal(approvedTraces(repo).length, 1);
  // The same state and answer again: a replay, refused; the question is asked afresh (with a new state).
  const replay = await s.round('onboarding_approve', { inputResponses: yes, requestState: second.requestState });
  assert.equal(replay.resultType, 'input_required');
  assert.deepEqual(Object.keys(replay.inputRequests), ['q1']);
  assert.notEqual(replay.requestState, second.requestState);
  assert.equal(approvedTraces(repo).length, 1, 'the replay approved nothing');
  assert.equal(fs.readdirSync(path.join(repo, '.copilot-state/used-request-states')).length, 2, 'one nonce per answer taken');
});

test('2026-07-28: answers a client sends unasked, or with a tampered or rebound state, are no answer', async (t) => {
  const { repo, s, first } = await atApprove(t);
  const yes = { q0: { action: 'accept', content: { approved: true } }, q1: { action: 'accept', content: { approved: true } } };
  // Unsolicited: answers on a first call, without a state.
  const unasked = await s.round('onboarding_approve', { inputResponses: { q1: yes.q1 } });
  assert.equal(unasked.resultType, 'input_required');
  assert.deepEqual(Object.keys(unasked.inputRequests), ['q0']);
  // Tampered: one character of the signed body changed.
  const state = first.requestState as string;
  const i = state.indexOf('.') + 5;
  const tampered = `${state.slice(0, i)}${state[i] === 'A' ? 'B' : 'A'}${state.slice(i + 1)}`;
  const withTampered = await s.round('onboarding_approve', { inputResponses: choices, requestState: tampered });
  assert.deepEqual(Object.keys(withTampered.inputRequests), ['q0']);
  // Rebound: approve's state on migrate.
  const onMigrate = await s.round('onboarding_migrate', { inputResponses: { q0: yes.q0 }, requestState: state });
  assert.notEqual(onMigrate.structuredContent?.outcome, 'migrated');
  // Minted by another server process (another session): not this one's key.
  const other = await openV2(t, { mode: 'pin', repo, elicit: yesToAll });
  const elsewhere = await other.round('onboarding_approve', { inputResponses: choices, requestState: state });
  assert.deepEqual(Object.keys(elsewhere.inputRequests), ['q0']);
  assert.equal(approvedTraces(repo).length, 0);
  assert.equal(fs.existsSync(path.join(repo, '.github/copilot-instructions.md.bak')), false);
  assert.equal(fs.readFileSync(path.join(repo, 'CLAUDE.md'), 'utf8'), FILES['CLAUDE.md'], 'nothing migrated');
});

test('2026-07-28: the folder of used answers planted as a link to an outside folder is refused: the answer is not taken, nothing lands outside, nothing is approved', async (t) => {
  const { repo, s, first } = await atApprove(t);
  const outside = tempDir(t, 'co-nonce-outside-');
  fs.symlinkSync(outside, path.join(repo, '.copilot-state/used-request-states'));
  const answered = await s.round('onboarding_approve', { inputResponses: choices, requestState: first.requestState });
  assert.notEqual(answered.resultType, 'input_required', 'the refusal is said, not asked around');
  assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written through the link');
  assert.equal(approvedTraces(repo).length, 0);
});

test('2026-07-28: a state past its time (the elicitation timeout) is no answer', async (t) => {
  const { repo, s, first } = await atApprove(t, { COPILOT_ONBOARD_ELICITATION_TIMEOUT_MS: '1000' });
  await new Promise((r) => setTimeout(r, 2100));
  const late = await s.round('onboarding_approve', { inputResponses: choices, requestState: first.requestState });
  assert.equal(late.resultType, 'input_required');
  assert.deepEqual(Object.keys(late.inputRequests), ['q0']);
  // The answer was not used: the question's timeout took its nonce and left a timeout trace (issue 41).
  assert.deepEqual(
    readTraces(repo, 'elicitation')
      .filter((x) => x.action === 'approve')
      .map((x) => x.outcome),
    ['timeout'],
  );
  assert.equal(fs.readdirSync(path.join(repo, '.copilot-state/used-request-states')).length, 1, 'only the timeout took a nonce');
});

test('2026-07-28 without elicitation: -32021 after the trace; 2025 without elicitation keeps elicitation_unsupported', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openV2(t, { mode: 'pin', repo, elicit: null });
  await s.call('onboarding_propose');
  await assert.rejects(s.call('onboarding_approve'), (err: { code?: number }) => err.code === -32021);
  assert.deepEqual(
    readTraces(repo, 'elicitation').map((x) => x.outcome),
    ['elicitation_unsupported'],
  );
  const old = await connect({ repo, elicit: null });
  try {
    assert.equal(outcomeOf(await old.call('onboarding_approve')), 'elicitation_unsupported');
  } finally {
    await old.close();
  }
});

test('2026-07-28 sampling: asked between calls when the request declares it (the narration follows the facts), else the built-in report', async (t) => {
  const repo = sandbox(t, FILES);
  const sample = () => ({
    role: 'assistant',
    model: 'test-model',
    stopReason: 'endTurn',
    content: { type: 'text', text: 'Two files say the same.' },
  });
  const s = await openV2(t, { mode: 'pin', repo, elicit: null, sample: sample as never });
  for (const name of ['onboarding_analyze', 'onboarding_propose']) {
    const r = await s.call(name);
    assert.equal(r.isError, false, name);
    assert.match(JSON.stringify(r.content), /Narration from the client's model[\s\S]*Two files say the same/, name);
  }
  // Propose also puts the second-look pairs to the model (alike lines of AGENTS.md and the Copilot file are listed for it).
  assert.equal(s.samplings.length, 3);
  const without = await openV2(t, { mode: 'pin', repo, elicit: null });
  assert.equal((await without.call('onboarding_analyze')).isError, false);
  assert.deepEqual(
    readTraces(repo, 'sampling').map((x) => [x.intent, x.outcome, x.fallback, x.protocol?.era]),
    [
      ['analyze', 'ok', false, 'modern'],
      // An answer that is no verdicts changes nothing (narrate/opinion.ts), traced as such.
      ['second-look', 'error', true, 'modern'],
      ['propose', 'ok', false, 'modern'],
      ['analyze', 'unsupported', true, 'modern'],
    ],
  );
});

test('a client that probes with server/discover and initializes half a second later is served as a 2025 client', async (t) => {
  const repo = sandbox(t, FILES);
  const child = spawn(process.execPath, [CLI, 'serve', '--repo', repo], { stdio: ['pipe', 'pipe', 'ignore'] });
  t.after(() => child.kill());
  const replies = new Map<number, Record<string, any>>();
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const m = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      if (typeof m.id === 'number') replies.set(m.id, m);
    }
  });
  const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  const reply = async (id: number) => {
    for (let i = 0; i < 200 && !replies.has(id); i++) await new Promise((r) => setTimeout(r, 25));
    return replies.get(id);
  };
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'prober', version: '1' },
  };
  send({ id: 1, method: 'server/discover', params: { _meta: envelope } });
  assert.ok(await reply(1), 'the probe is answered');
  await new Promise((r) => setTimeout(r, 500));
  send({
    id: 2,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'prober', version: '1' } },
  });
  assert.equal((await reply(2))?.result?.protocolVersion, '2025-11-25');
  send({ method: 'notifications/initialized' });
  send({ id: 3, method: 'tools/call', params: { name: 'onboarding_analyze', arguments: {} } });
  assert.equal((await reply(3))?.result?.structuredContent?.outcome, 'analyzed');
});
