import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NO_SESSION } from '../../server/src/call/ports.js';
import type { FlowContext } from '../../server/src/call/context.js';
import { callStep, REFUSED_STATE_NOTICE, STATE_FOLDER_NOTICE, type StepCall } from '../../server/src/steps/tool-call.js';
import { NARRATION_LABEL } from '../../server/src/narrate/narration-label.js';
import { MAX_TEXT_BYTES } from '../../server/src/narrate/bounded.js';
import { writeJson } from '../../server/src/repo/safe-fs.js';
import { PreconditionError } from '../../server/src/common/errors.js';
import { result, type StepResult } from '../../server/src/steps/result.js';
import { sandbox, tempDir } from '../helpers/sandbox.js';

/** steps/tool-call.ts in process: a step of our own making, a real repository, the result as MCP shows it. */

function call(root: string, run: (ctx: FlowContext) => Promise<StepResult>, more: Partial<StepCall> = {}) {
  const logged: string[] = [];
  const done = callStep({
    name: 'onboarding_analyze',
    run,
    root: async () => root,
    session: NO_SESSION,
    options: {},
    report: { progress: () => {}, log: (level, m) => void logged.push(`${level}: ${m}`), flush: async () => {} },
    ...more,
  });
  return { done, logged };
}

const textOf = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? '').join('\n');

test("the run that creates .copilot-state/ says so once, before the client model's narration, and the next run does not", async (t) => {
  const root = sandbox(t, { 'AGENTS.md': '- Use pnpm.\n' });
  const step = async (ctx: FlowContext) => {
    await writeJson(ctx.root, '.copilot-state/x.json', {});
    return { ...result('analyzed', 'The facts.'), narration: `${NARRATION_LABEL}\nThe story.` };
  };
  const first = await call(root, step).done;
  assert.equal(textOf(first), `The facts.\n\n${STATE_FOLDER_NOTICE}\n\n---\n${NARRATION_LABEL}\nThe story.`);
  assert.equal(first.structuredContent?.notice, STATE_FOLDER_NOTICE);
  const second = await call(root, step).done;
  assert.equal(textOf(second), `The facts.\n\n---\n${NARRATION_LABEL}\nThe story.`);
});

test("the call's facts are composed once, in order: recovered first, the report, the ignored state, the new folder, the end, the narration", async (t) => {
  const root = sandbox(t, { 'AGENTS.md': '- Use pnpm.\n' });
  // Decision state this clone did not write (a hand-made onboarding.json): the call says it is ignored.
  fs.mkdirSync(path.join(root, '.copilot-state'));
  fs.writeFileSync(path.join(root, '.copilot-state/onboarding.json'), '{}\n');
  const step = async () => ({ ...result('analyzed', 'The facts.'), narration: `${NARRATION_LABEL}\nThe story.`, end: 'Next: propose.' });
  const r = await call(root, step, { options: { cliCommand: 'copilot-onboard' } }).done;
  const ignored = r.structuredContent?.ignoredState;
  assert.ok(ignored, 'the state was judged foreign');
  const text = textOf(r);
  const parts = text.split('\n\n');
  assert.equal(parts[0], 'The facts.');
  assert.match(parts[1]!, /onboarding\.json/, 'the ignored-state notice follows the report');
  assert.deepEqual(parts.slice(2), ['Next: propose.', `---\n${NARRATION_LABEL}\nThe story.`], text);
  // Said once each: nothing composed twice.
  assert.equal(text.split(NARRATION_LABEL).length, 2);
  assert.equal(text.split(parts[1]!).length, 2);
  assert.equal(r.structuredContent?.notice, undefined, '.copilot-state/ was there before the call');
});

test('a refusal that created .copilot-state/ for its trace says that only the trace was written there', async (t) => {
  const root = sandbox(t, { 'AGENTS.md': '- Use pnpm.\n' });
  const r = await call(root, async (ctx) => {
    await writeJson(ctx.root, '.copilot-state/elicitation-traces/x.json', {});
    return result('declined', 'You answered No. Nothing was changed.');
  }).done;
  assert.equal(textOf(r), `You answered No. Nothing was changed.\n\n${REFUSED_STATE_NOTICE}`);
  assert.equal(r.isError, false);
});

test("a step's error becomes its outcome (a precondition is precondition_failed, anything else an internal error), logged as a warning", async (t) => {
  const root = sandbox(t, { 'AGENTS.md': '- Use pnpm.\n' });
  const refused = call(root, async () => {
    throw new PreconditionError('No plan yet');
  });
  const r = await refused.done;
  assert.equal(r.structuredContent?.outcome, 'precondition_failed');
  assert.equal(r.isError, true);
  assert.equal(textOf(r), 'No plan yet');
  const broken = await call(root, async () => {
    throw new TypeError('x is undefined');
  }).done;
  assert.equal(broken.structuredContent?.outcome, 'error');
  assert.match(textOf(broken), /^Internal error: x is undefined$/);
  const fine = call(root, async () => result('analyzed', 'ok'));
  await fine.done;
  assert.deepEqual(fine.logged, ['info: onboarding_analyze: analyzed']);
});

test('before any step: a bare repository and a .copilot-state that is a link are refused, and the step never runs', async (t) => {
  let ran = 0;
  const step = async () => (ran++, result('analyzed', 'ok'));
  const bare = tempDir(t, 'co-bare-');
  execFileSync('git', ['init', '-q', '--bare', bare]);
  assert.equal((await call(bare, step).done).structuredContent?.outcome, 'precondition_failed');
  const root = sandbox(t, { 'AGENTS.md': '- Use pnpm.\n' });
  fs.symlinkSync(tempDir(t, 'co-elsewhere-'), path.join(root, '.copilot-state'));
  const linked = await call(root, step).done;
  assert.equal(linked.structuredContent?.outcome, 'precondition_failed', textOf(linked));
  assert.equal(ran, 0);
});

test('a long reply is cut: what was cut is counted, the end is still said last, and the whole is offered as a resource', async (t) => {
  const root = sandbox(t, { 'AGENTS.md': '- Use pnpm.\n' });
  const long = Array.from({ length: 40_000 }, (_, i) => `- line ${i} of the report`).join('\n');
  const r = await call(root, async () => ({ ...result('analyzed', long), end: 'Next: propose.' })).done;
  const text = (r.content[0] as { text: string }).text;
  assert.ok(Buffer.byteLength(text, 'utf8') <= MAX_TEXT_BYTES, `${Buffer.byteLength(text, 'utf8')} bytes`);
  assert.ok(text.endsWith('\n\nNext: propose.'), text.slice(-200));
  const truncated = r.structuredContent?.truncated as { textCut: boolean; resource?: string };
  assert.equal(truncated.textCut, true);
  assert.equal(truncated.resource, 'copilot-onboard://analysis');
  assert.deepEqual(
    r.content.filter((c) => c.type === 'resource_link').map((c) => (c as { uri: string }).uri),
    ['copilot-onboard://analysis'],
  );
});
