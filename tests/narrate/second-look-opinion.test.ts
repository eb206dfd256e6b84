import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { McpError, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, never, outcomeOf, textOf, type SampleAnswer } from '../helpers/mcp.js';
import { openV2 } from '../helpers/mcp-v2.js';
import { FLAT_INSTRUCTIONS, readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';
import { OPINION_PROMPT } from '../../server/src/narrate/opinion-prompt.js';

/**
 * Propose puts the second-look pairs to the client's model (narrate/opinion.ts), scripted here: a
 * verdict that quotes both lines counts, is shown as the model's opinion and moves the pair's rank;
 * a wrong quote is dropped; a refusal, an error, a timeout or an answer that is not the JSON asked
 * for leaves propose exactly as it is without sampling. Each exchange is traced.
 */

/** Two second-look pairs on main's analysis: a style pair in AGENTS.md, and a flag on every run in one file only. */
const FILES = {
  'AGENTS.md':
    '# Agents\n\n## Style\n\n- Add a JSDoc comment to every function.\n\n## Anti-patterns\n\n- Do not add comments that restate what the code does.\n',
  'CLAUDE.md': '# Claude\n\n## Testing\n\n```bash\nnpx cypress run spec/login.cy.ts --browser=chrome\n```\n',
  '.cursor/rules/test.mdc':
    '---\ndescription: tests\nglobs: spec/**/*.ts\nalwaysApply: false\n---\n# Tests\n\n```bash\nnpx cypress run spec/checkout/\n```\n',
};

interface SentPair {
  id: string;
  A: { file: string; line: number; scope: string; text: string };
  B: { file: string; line: number; scope: string; text: string };
}

const isOpinion = (req: CreateMessageRequest['params']) => req.systemPrompt === OPINION_PROMPT.system;
const textIn = (req: CreateMessageRequest['params']) => {
  const c = req.messages[0]!.content as { text?: string };
  return c.text ?? '';
};
const pairsIn = (req: CreateMessageRequest['params']): SentPair[] =>
  textIn(req)
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as SentPair);

const reply = (text: string): CreateMessageResult => ({
  model: 'test-model',
  role: 'assistant',
  content: { type: 'text', text },
  stopReason: 'endTurn',
});
const declined = () => {
  throw new McpError(-1, 'User rejected sampling request');
};

/** A model that answers the second-look question with `answer`, and declines to narrate (so the text is the tool's own). */
const model =
  (answer: SampleAnswer): SampleAnswer =>
  (req) =>
    isOpinion(req) ? answer(req) : declined();

type Verdict = { id: string; verdict: string; quoteA: string; quoteB: string; reason: string };
const verdicts =
  (make: (p: SentPair, i: number) => Verdict | null): SampleAnswer =>
  (req) =>
    reply(`\`\`\`json\n${JSON.stringify({ verdicts: pairsIn(req).flatMap((p, i) => make(p, i) ?? []) })}\n\`\`\``);

async function proposeWith(
  t: Cleanup,
  sample: SampleAnswer | null,
  env: Record<string, string> = {},
  files: Record<string, string> = FILES,
) {
  const repo = sandbox(t, files);
  const s = await connect({ repo, sample, env });
  try {
    const r = await s.call('onboarding_propose');
    const plan = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state', 'plan.json'), 'utf8')) as Record<string, any>;
    return { r, repo, plan, samplings: s.samplings, traces: readTraces(repo, 'sampling') };
  } finally {
    await s.close();
  }
}

/** A result with the repository's path taken out, and the plan without its date and seal: what two runs share. */
function comparable(run: Awaited<ReturnType<typeof proposeWith>>) {
  const { createdAt: _c, binding: _b, ...plan } = run.plan;
  const structured = JSON.parse(JSON.stringify(run.r.structuredContent).replaceAll(run.repo, '<repo>')) as Record<string, unknown>;
  return { text: textOf(run.r).replaceAll(run.repo, '<repo>'), structured, plan };
}

test('with no sampling the pairs go nowhere: no request, no second-look trace, no opinion', async (t) => {
  const none = await proposeWith(t, null);
  assert.equal(outcomeOf(none.r), 'proposed');
  assert.equal(none.samplings.length, 0);
  assert.deepEqual(
    none.traces.map((x) => x.intent),
    ['propose'],
  );
  assert.equal((none.r.structuredContent as Record<string, unknown>).modelOpinion, undefined);
  assert.equal(none.plan.modelOpinion, undefined);
  assert.ok(!textOf(none.r).includes("client's model"));
  const lows = (none.r.structuredContent as { problems: { certainty?: string }[] }).problems.filter((p) => p.certainty === 'low');
  assert.equal(lows.length, 2, 'the fixture holds two second-look pairs');
});

test('verdicts that quote both lines are shown as the model opinion and move the ranks; the plan is the same', async (t) => {
  const none = await proposeWith(t, null);
  // The first pair is compatible, the second a conflict: the second comes first.
  const run = await proposeWith(
    t,
    model(
      verdicts((p, i) => ({
        id: p.id,
        verdict: i === 0 ? 'compatible' : 'conflict',
        // Whitespace is all a quote may change.
        quoteA: `  ${p.A.text.replace(/ /g, '  ')} `,
        quoteB: p.B.text,
        reason:
          i === 0 ? 'One asks for doc comments, the other forbids only comments that restate the code.' : 'One runs every test in Chrome.',
      })),
    ),
  );
  const opinionRequests = run.samplings.filter(isOpinion);
  assert.equal(opinionRequests.length, 1, 'one request for all the pairs');
  const sent = pairsIn(opinionRequests[0]!);
  assert.equal(sent.length, 2);
  assert.deepEqual(sent[0]!.A, {
    file: 'AGENTS.md',
    line: 5,
    scope: 'the whole repository; under "Agents > Style"',
    text: '- Add a JSDoc comment to every function.',
  });
  assert.match(sent[1]!.B.scope, /files matching "spec\/\*\*\/\*\.ts"/);

  const opinion = (run.r.structuredContent as { modelOpinion: Record<string, any> }).modelOpinion;
  assert.equal(opinion.model, 'test-model');
  assert.equal(opinion.asked, 2);
  assert.deepEqual(
    opinion.verdicts.map((v: Record<string, unknown>) => [v.id, v.verdict, v.rankBefore, v.rank]),
    [
      [sent[0]!.id, 'compatible', 1, 2],
      [sent[1]!.id, 'conflict', 2, 1],
    ],
  );
  assert.deepEqual(opinion.ranked, [sent[1]!.id, sent[0]!.id]);
  assert.deepEqual(opinion.dropped, []);
  assert.deepEqual(run.plan.modelOpinion, opinion, 'kept beside the plan for approve');

  // Nothing is decided: the plan, its hash, its problems and conflicts are those of a run without sampling.
  const a = comparable(run);
  const b = comparable(none);
  const { modelOpinion: _o, ...plan } = a.plan;
  assert.deepEqual(plan, b.plan);
  const { modelOpinion: _s, ...structured } = a.structured;
  assert.deepEqual(structured, b.structured);
  assert.equal(run.plan.planHash, none.plan.planHash);

  // The text: the tool's own, then the opinion, labelled; without the opinion it is the text of a run without sampling.
  const text = textOf(run.r);
  const at = text.indexOf("\n\nSecond-look pairs as the client's model (test-model) reads them: its opinion, not copilot-onboard's");
  assert.ok(at > 0, text);
  assert.match(
    text,
    /the client's model \(test-model\) thinks they conflict: "One runs every test in Chrome\." \(its opinion; ranked 1, was 2\)/,
  );
  assert.match(
    text,
    /the client's model \(test-model\) thinks both can stand: "One asks for doc comments[^"]*" \(its opinion; ranked 2, was 1\)/,
  );
  const block = text.slice(at, text.indexOf('\n\n', at + 2));
  assert.equal(a.text.replace(block, ''), b.text);

  // The exchange is traced like the narration, with what counted.
  const trace = run.traces.find((x) => x.intent === 'second-look')!;
  assert.match(trace._file, /-second-look\.json$/);
  assert.equal(trace.outcome, 'ok');
  assert.equal(trace.fallback, false);
  assert.equal(trace.request.systemPrompt, OPINION_PROMPT.system);
  assert.equal(trace.response.model, 'test-model');
  assert.deepEqual(trace.verdicts, {
    counted: [
      { id: sent[0]!.id, verdict: 'compatible' },
      { id: sent[1]!.id, verdict: 'conflict' },
    ],
    dropped: [],
  });
  assert.equal(opinion.trace, `.copilot-state/sampling-traces/${trace._file}`);
});

test('a verdict with a wrong quote is dropped, with why; the others count', async (t) => {
  const run = await proposeWith(
    t,
    model(
      verdicts((p, i) => ({
        id: p.id,
        verdict: 'conflict',
        quoteA: p.A.text,
        // The model "quotes" a line the file does not hold.
        quoteB: i === 0 ? 'Add comments to every line of code.' : p.B.text,
        reason: 'They disagree.',
      })),
    ),
  );
  const opinion = (run.r.structuredContent as { modelOpinion: Record<string, any> }).modelOpinion;
  const sent = pairsIn(run.samplings.find(isOpinion)!);
  assert.deepEqual(
    opinion.verdicts.map((v: Record<string, unknown>) => v.id),
    [sent[1]!.id],
  );
  assert.deepEqual(opinion.dropped, [
    { id: sent[0]!.id, why: `its quote is not the line ${sent[0]!.B.file}:${sent[0]!.B.line} as it stands` },
  ]);
  assert.match(textOf(run.r), /Not counted: 1 verdict that did not quote both lines as they stand/);
  const trace = run.traces.find((x) => x.intent === 'second-look')!;
  assert.equal(trace.outcome, 'ok');
  assert.deepEqual(trace.verdicts.dropped, opinion.dropped);
});

const FAILURES: [string, SampleAnswer, Record<string, string>, string][] = [
  ['a refusal', declined, {}, 'denied'],
  [
    'an error',
    () => {
      throw new Error('model exploded');
    },
    {},
    'error',
  ],
  ['a timeout', never, { COPILOT_ONBOARD_SAMPLING_TIMEOUT_MS: '300' }, 'timeout'],
  ['an answer that is not JSON', () => reply('Both pairs look like real conflicts to me.'), {}, 'error'],
  ['JSON of another shape', () => reply('{"pairs": [1, 2]}'), {}, 'error'],
  [
    'verdicts that quote nothing right',
    verdicts((p) => ({ id: p.id, verdict: 'conflict', quoteA: 'something', quoteB: p.B.text, reason: 'r' })),
    {},
    'error',
  ],
  [
    'an empty reply',
    () => ({ model: 'test-model', role: 'assistant', content: { type: 'image', data: '', mimeType: 'image/png' } }) as never,
    {},
    'error',
  ],
];

for (const [what, answer, env, outcome] of FAILURES) {
  test(`${what} changes nothing: propose is what it is without sampling, and the exchange is traced`, async (t) => {
    const none = await proposeWith(t, null);
    const run = await proposeWith(t, model(answer), env);
    assert.equal(run.samplings.filter(isOpinion).length, 1);
    const a = comparable(run);
    const b = comparable(none);
    assert.equal(a.text, b.text);
    assert.deepEqual(a.structured, b.structured);
    assert.deepEqual(a.plan, b.plan);
    const trace = run.traces.find((x) => x.intent === 'second-look')!;
    assert.equal(trace.outcome, outcome);
    assert.equal(trace.fallback, true);
    assert.equal(typeof trace.error, 'string');
  });
}

test('a repository with no second-look pair sends no second-look request', async (t) => {
  const run = await proposeWith(
    t,
    model(() => reply('{}')),
    {},
    { '.github/copilot-instructions.md': FLAT_INSTRUCTIONS },
  );
  assert.equal(run.samplings.filter(isOpinion).length, 0);
  assert.ok(run.traces.every((x) => x.intent !== 'second-look'));
});

test("approve's first round shows the model's opinion beside the pair, labelled, and asks the same questions", async (t) => {
  const repo = sandbox(t, FILES);
  const forms: { message: string; requestedSchema: unknown }[] = [];
  const cancel = (req: { message: string; requestedSchema: unknown }) => {
    forms.push(req);
    return { action: 'cancel' as const };
  };
  const s = await connect({
    repo,
    elicit: cancel as never,
    sample: model(
      verdicts((p) => ({ id: p.id, verdict: 'conflict', quoteA: p.A.text, quoteB: p.B.text, reason: 'One flag, two habits.' })),
    ),
  });
  t.after(() => s.close());
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const plain = sandbox(t, FILES);
  const p = await connect({ repo: plain, elicit: cancel as never });
  t.after(() => p.close());
  await p.call('onboarding_propose');
  await p.call('onboarding_approve');
  assert.equal(forms.length, 2);
  assert.match(
    forms[0]!.message,
    /\(worth a second look: by default both stand, unmarked\); the client's model \(test-model\) thinks they conflict: "One flag, two habits\." \(its opinion; /,
  );
  assert.deepEqual(forms[0]!.requestedSchema, forms[1]!.requestedSchema, 'the same questions and defaults');
  assert.equal(
    forms[0]!.message.replace(
      /; the client's model \(test-model\) thinks they conflict: "One flag, two habits\." \(its opinion; [^)]*\)/g,
      '',
    ),
    forms[1]!.message,
  );
});

test('2026-07-28: the question is asked between calls, once, and traced once', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openV2(t, {
    mode: 'pin',
    repo,
    elicit: null,
    sample: ((req: CreateMessageRequest['params']) =>
      isOpinion(req)
        ? verdicts((p) => ({ id: p.id, verdict: 'unsure', quoteA: p.A.text, quoteB: p.B.text, reason: 'Cannot tell.' }))(req)
        : reply('A narration.')) as never,
  });
  const r = await s.call('onboarding_propose');
  assert.equal(outcomeOf(r as never), 'proposed');
  const opinion = (r.structuredContent as { modelOpinion: Record<string, any> }).modelOpinion;
  assert.deepEqual(
    opinion.verdicts.map((v: Record<string, unknown>) => [v.verdict, v.rankBefore, v.rank]),
    [
      ['unsure', 1, 1],
      ['unsure', 2, 2],
    ],
  );
  assert.match(textOf(r as never), /the client's model \(test-model\) is unsure: "Cannot tell\." \(its opinion; rank 1\)/);
  assert.deepEqual(
    readTraces(repo, 'sampling').map((x) => [x.intent, x.outcome, x.protocol?.era]),
    [
      ['second-look', 'ok', 'modern'],
      ['propose', 'ok', 'modern'],
    ],
  );
});

/** Twelve second-look pairs: a test runner's flag on every run in one file only, for each of twelve runners. */
const RELEASES = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heath', 'inlet', 'juniper', 'kestrel', 'larch'];
const MANY = {
  'CLAUDE.md': `# Claude\n\n## Testing\n\n\`\`\`bash\n${RELEASES.map((w) => `npx ${w}-runner run spec/${w}.ts --browser=chrome`).join('\n')}\n\`\`\`\n`,
  '.cursor/rules/test.mdc': `---\ndescription: tests\nglobs: spec/**/*.ts\nalwaysApply: false\n---\n# Tests\n\n\`\`\`bash\n${RELEASES.map((w) => `npx ${w}-runner run spec/${w}/`).join('\n')}\n\`\`\`\n`,
};

test('the model reads the ranked pairs past the 8 a person is shown (issue 39): one it thinks conflict rises, the plan offers the same 8', async (t) => {
  const none = await proposeWith(t, null, {}, MANY);
  const lows = (none.r.structuredContent as { problems: { certainty?: string }[] }).problems.filter((p) => p.certainty === 'low');
  assert.equal(lows.length, 12, 'the fixture holds twelve second-look pairs');
  assert.equal(none.plan.conflicts.filter((c: { secondLook?: boolean }) => c.secondLook).length, 8, 'a person is offered the first 8');
  const run = await proposeWith(
    t,
    model(
      verdicts((p) =>
        p.id === 'second_look_11'
          ? { id: p.id, verdict: 'conflict', quoteA: p.A.text, quoteB: p.B.text, reason: 'One run, two flags.' }
          : null,
      ),
    ),
    {},
    MANY,
  );
  const sent = pairsIn(run.samplings.filter(isOpinion)[0]!);
  assert.deepEqual(
    sent.map((p) => p.id),
    [...Array.from({ length: 8 }, (_, i) => `conflict_${i + 1}`), ...Array.from({ length: 4 }, (_, i) => `second_look_${i + 9}`)],
    'the plan offers 8, the model reads all 12 in rank order',
  );
  assert.deepEqual(sent[10]!.A.text.includes('kestrel') || sent[10]!.B.text.includes('kestrel'), true);
  const opinion = (run.r.structuredContent as { modelOpinion: Record<string, any> }).modelOpinion;
  assert.equal(opinion.asked, 12);
  assert.deepEqual(
    opinion.verdicts.map((v: Record<string, unknown>) => [v.id, v.verdict, v.rankBefore, v.rank]),
    [['second_look_11', 'conflict', 11, 3]],
  );
  assert.match(
    textOf(run.r),
    /kestrel[^\n]*the client's model \(test-model\) thinks they conflict: "One run, two flags\." \(its opinion; ranked 3, was 11\)/,
  );
  // Nothing is decided: the plan is the plan of a run without sampling.
  assert.equal(run.plan.planHash, none.plan.planHash);
});

/** Two alike lines of two files nothing marks (listed for the model only), and no pair the finder marks. */
const ALIKE = {
  'AGENTS.md': '# Agents\n\n## State\n\n- **Quokka** for global state, hooks for local\n- Keep stores small.\n',
  'CLAUDE.md': '# Claude\n\n## State\n\n- **Quokka** for global state where it exists, hooks for local\n- Name stores after their data.\n',
};

test('alike lines nothing marks are read by the model though the plan offers no pair; a person sees them only through its verdict', async (t) => {
  const none = await proposeWith(t, null, {}, ALIKE);
  const problems = (none.r.structuredContent as { problems: { kind?: string; listedOnly?: boolean }[] }).problems;
  assert.ok(problems.length > 0 && problems.every((p) => p.kind === 'alike' && p.listedOnly === true), 'the JSON lists the pairs');
  assert.equal(none.plan.conflicts.length, 0, 'approve asks about nothing');
  assert.doesNotMatch(textOf(none.r), /Two alike lines/, 'a person is not shown it by its rank');
  assert.match(
    textOf(none.r),
    new RegExp(`and ${problems.length} more pairs? worth a second look, ranked lower \\(listed in the JSON output\\)`),
  );
  const run = await proposeWith(
    t,
    model(
      verdicts((p, i) =>
        i === 0 ? { id: p.id, verdict: 'conflict', quoteA: p.A.text, quoteB: p.B.text, reason: 'One narrows the other.' } : null,
      ),
    ),
    {},
    ALIKE,
  );
  const sent = pairsIn(run.samplings.filter(isOpinion)[0]!);
  assert.deepEqual([sent[0]!.id, sent[0]!.A.line, sent[0]!.B.line], ['second_look_9', 5, 5], 'the likeliest first');
  assert.equal(sent.length, problems.length, 'the model reads every listed pair');
  assert.match(
    textOf(run.r),
    /"\*\*Quokka\*\* for global state, hooks for local" \(AGENTS\.md:5\) or "\*\*Quokka\*\* for global state where it exists, hooks for local" \(CLAUDE\.md:5\): the client's model \(test-model\) thinks they conflict: "One narrows the other\."/,
  );
  assert.equal(run.plan.planHash, none.plan.planHash, 'nothing is decided');
});
