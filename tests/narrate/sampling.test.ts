import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { connect, never, openSession, outcomeOf, textOf, type SampleAnswer } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';
const narrator =
  (text: string): SampleAnswer =>
  () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text }, stopReason: 'endTurn' });
const LABEL = "Narration from the client's model (test-model), not checked by copilot-onboard:";
/** The narration as the result shows it: after the tool's report, under its label, each line quoted. */
const narrationOf = (text: string) => text.slice(text.indexOf(`\n\n---\n${LABEL}\n`) + `\n\n---\n${LABEL}\n`.length);

async function analyzeWith(t: Cleanup, sample: SampleAnswer | null, env: Record<string, string> = {}) {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await connect({ repo, sample, env });
  try {
    const r = await s.call('onboarding_analyze');
    return { r, repo, samplings: s.samplings, traces: readTraces(repo, 'sampling') };
  } finally {
    await s.close();
  }
}

test('a client that narrates: the narration reaches the model and the trace says ok', async (t) => {
  const { r, samplings, traces } = await analyzeWith(t, narrator('Two rules disagree about the package manager.'));
  assert.equal(outcomeOf(r), 'analyzed');
  assert.match(textOf(r), /^Pattern: messy/, 'the built-in facts come first');
  assert.ok(textOf(r).includes(`\n\n---\n${LABEL}\n> Two rules disagree about the package manager.`), 'the narration follows, labelled');
  assert.equal(samplings.length, 1);
  assert.ok(samplings[0]!.systemPrompt && samplings[0]!.systemPrompt.length > 20);
  const sent = JSON.stringify(samplings[0]!.messages);
  assert.match(sent, /contradiction/, 'the structured analysis is sent to the model');
  assert.equal(traces.length, 1);
  assert.equal(traces[0]!.outcome, 'ok');
  assert.equal(traces[0]!.fallback, false);
  assert.equal(traces[0]!.intent, 'analyze');
  assert.equal(traces[0]!.response.model, 'test-model');
  assert.match(traces[0]!._file, /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-analyze\.json$/);
});

test('the structured result never comes from the model', async (t) => {
  const a = await analyzeWith(t, narrator('{"pattern":"clean","problems":[]} everything is clean'));
  const b = await analyzeWith(t, null);
  const strip = (r: typeof a.r) => {
    const { narration: _n, ...rest } = r.structuredContent as Record<string, unknown>;
    return JSON.parse(JSON.stringify(rest).replaceAll(a.repo, '').replaceAll(b.repo, ''));
  };
  assert.deepEqual(strip(a.r), strip(b.r));
  assert.equal((a.r.structuredContent as { pattern: string }).pattern, 'messy');
  assert.equal((a.r.structuredContent as { narration: string }).narration, 'sampling');
  assert.equal((b.r.structuredContent as { narration: string }).narration, 'builtin');
});

test('a client without sampling gets the built-in report, and no request is sent', async (t) => {
  const { r, samplings, traces } = await analyzeWith(t, null);
  assert.match(textOf(r), /^Pattern: messy/);
  assert.equal(samplings.length, 0);
  assert.equal(traces.length, 1);
  assert.equal(traces[0]!.outcome, 'unsupported');
  assert.equal(traces[0]!.fallback, true);
  assert.equal(traces[0]!.response, null);
});

test('a person who refuses sampling gets the built-in report and the trace says denied', async (t) => {
  const { r, traces } = await analyzeWith(t, () => {
    throw new McpError(-1, 'User rejected sampling request');
  });
  assert.match(textOf(r), /^Pattern: messy/);
  assert.equal(traces[0]!.outcome, 'denied');
  assert.equal(traces[0]!.fallback, true);
});

test('a sampling error falls back to the built-in report', async (t) => {
  const { r, traces } = await analyzeWith(t, () => {
    throw new Error('model exploded');
  });
  assert.equal(outcomeOf(r), 'analyzed');
  assert.match(textOf(r), /^Pattern: messy/);
  assert.equal(traces[0]!.outcome, 'error');
  assert.equal(traces[0]!.fallback, true);
});

test('a model that never answers times out into the built-in report', async (t) => {
  const started = Date.now();
  const { r, traces } = await analyzeWith(t, never, { COPILOT_ONBOARD_SAMPLING_TIMEOUT_MS: '300' });
  assert.ok(Date.now() - started < 20_000);
  assert.match(textOf(r), /^Pattern: messy/);
  assert.equal(traces[0]!.outcome, 'timeout');
  assert.equal(traces[0]!.fallback, true);
});

test('a very long narration is cut to a sane length', async (t) => {
  const { r } = await analyzeWith(t, narrator('word '.repeat(5000)));
  const narration = narrationOf(textOf(r)).replace(/^> /gm, '');
  assert.ok(narration.length <= 4000, `narration is ${narration.length} chars`);
  assert.ok(narration.length > 3000);
});

test('propose narrates too, with one sampling trace per exchange', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, sample: narrator('The plan groups the rules into sections.') });
  await s.call('onboarding_analyze');
  const r = await s.call('onboarding_propose');
  assert.match(textOf(r), /^Pattern: messy/);
  assert.equal(narrationOf(textOf(r)), '> The plan groups the rules into sections.');
  assert.deepEqual(
    readTraces(repo, 'sampling').map((t) => t.intent),
    ['analyze', 'propose'],
  );
});
