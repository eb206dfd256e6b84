import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { progressLine, type LineStream } from '../../server/src/show/progress-line.js';
import { showLine } from '../../server/src/show/untrusted.js';
import { spawn } from 'node:child_process';
import { CLI, openSession } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, sandbox, tempDir, type Cleanup } from '../helpers/sandbox.js';

/** A terminal stand-in: what the progress line writes lands in a file. */
function fakeTerminal(t: Cleanup): LineStream & { text(): string } {
  const file = path.join(tempDir(t, 'co-progress-'), 'tty');
  const fd = fs.openSync(file, 'a+');
  t.after(() => fs.closeSync(fd));
  return { isTTY: true, fd, write: (s: string) => fs.writeSync(fd, s), text: () => fs.readFileSync(file, 'utf8') };
}

const busy = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the progress line shows the latest message after the delay, even while the main thread is busy', async (t) => {
  const tty = fakeTerminal(t);
  const line = progressLine(200, tty);
  line.update('Read 10 of 10 instruction files');
  line.update('Analyzing 10 instruction files…');
  // Like analyze on a large monorepo: the event loop of this thread does not turn.
  busy(1500);
  assert.equal(tty.text(), '\rAnalyzing 10 instruction files…\x1b[K');
  await line.stop();
  assert.equal(tty.text(), '\rAnalyzing 10 instruction files…\x1b[K\r\x1b[K', 'cleared at the end');
});

test('the progress line makes a message safe to show itself (a file name may hold a control), so a command on a pipe never escapes one', async (t) => {
  const tty = fakeTerminal(t);
  const line = progressLine(0, tty);
  const message = 'Read evil\x1b[2Jname.md\u202e';
  line.update(message);
  for (let waited = 0; tty.text() === '' && waited < 3000; waited += 20) await sleep(20);
  assert.equal(tty.text(), `\r${showLine(message)}\x1b[K`);
  assert.ok(!showLine(message).includes('\x1b'), 'the check sees an escape');
  await line.stop();
});

test('nothing shows before the delay, nor while paused, nor on a stream that is not a terminal', async (t) => {
  const tty = fakeTerminal(t);
  const line = progressLine(300, tty);
  line.update('Read 1 of 1 instruction files');
  await sleep(100);
  assert.equal(tty.text(), '');
  line.pause();
  await sleep(400);
  assert.equal(tty.text(), '', 'paused: a form is on screen');
  line.resume();
  line.update('Wrote AGENTS.md');
  // The line is drawn by another thread: wait for it (bounded) rather than for a fixed time.
  for (let waited = 0; tty.text() === '' && waited < 3000; waited += 20) await sleep(20);
  assert.equal(tty.text(), '\rWrote AGENTS.md\x1b[K');
  await line.stop();

  const pipe = { ...fakeTerminal(t), isTTY: false };
  const silent = progressLine(0, pipe);
  silent.update('x');
  await sleep(100);
  await silent.stop();
  assert.equal(pipe.text(), '');
});

test('analyze and propose report each phase after the files read, in increasing progress', async (t) => {
  const repo = sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS, 'AGENTS.md': '- Keep commits small.\n' });
  const s = await openSession(t, { repo });
  for (const [tool, phases] of [
    ['onboarding_analyze', ['Read 2 of 2 instruction files', 'Analyzing 2 instruction files…', 'Writing the report…']],
    [
      'onboarding_propose',
      ['Read 2 of 2 instruction files', 'Analyzing 2 instruction files…', 'Building the plan…', 'Writing the report…'],
    ],
  ] as const) {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    await s.client.callTool({ name: tool, arguments: {} }, undefined, { onprogress: (p) => void seen.push(p) });
    assert.deepEqual(
      seen.map((p) => p.message),
      phases,
      tool,
    );
    assert.ok(
      seen.every((p, i) => i === 0 || p.progress > seen[i - 1]!.progress),
      'progress increases',
    );
    assert.equal(seen.at(-1)!.progress, seen.at(-1)!.total, 'the last phase completes the total');
  }
});

test('progress messages are sent in order, and the result waits for the last of them (no progress after the result)', async () => {
  const { reporter } = await import('../../server/src/mcp/server.js');
  const written: string[] = [];
  // A transport that is slow on the first message: without ordering, the second would overtake it.
  const delays = [60, 0, 20];
  const send = (n: any) =>
    new Promise<void>((resolve) => setTimeout(() => (written.push(n.params.message), resolve()), delays[written.length] ?? 0));
  const r = reporter({} as any, 'token-1', send);
  r.progress(1, 3, 'Read 1 of 1 instruction files');
  r.progress(2, 3, 'Analyzing 1 instruction files…');
  r.progress(3, 3, 'Writing the report…');
  await r.flush();
  written.push('result');
  assert.deepEqual(written, ['Read 1 of 1 instruction files', 'Analyzing 1 instruction files…', 'Writing the report…', 'result']);
});

test('over stdio every progress message of a call is written before its result', async (t) => {
  // Checked on the wire: the SDK's own client handles a notification a microtask later than a
  // response that came in the same chunk, so its "unknown token" errors say nothing about our order.
  const repo = sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS, 'AGENTS.md': '- Keep commits small.\n' });
  const child = spawn(process.execPath, [CLI, 'serve', '--repo', repo], { stdio: ['pipe', 'pipe', 'ignore'] });
  t.after(() => child.kill());
  const seen: Array<{ id?: number; method?: string; params?: { progressToken?: number } }> = [];
  let buffered = '';
  const waiters = new Map<number, () => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      seen.push(message);
      if (typeof message.id === 'number' && !message.method) waiters.get(message.id)?.();
    }
  });
  const request = (id: number, method: string, params: object) =>
    new Promise<void>((resolve) => {
      waiters.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wire', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  for (let id = 1; id <= 10; id++) {
    await request(id, 'tools/call', {
      name: id % 2 ? 'onboarding_propose' : 'onboarding_analyze',
      arguments: {},
      _meta: { progressToken: id },
    });
  }
  await new Promise((r) => setTimeout(r, 200));
  for (let id = 1; id <= 10; id++) {
    const result = seen.findIndex((m) => m.id === id && !m.method);
    const progress = seen.flatMap((m, i) => (m.method === 'notifications/progress' && m.params?.progressToken === id ? [i] : []));
    assert.ok(progress.length > 0, `call ${id} reported progress`);
    assert.ok(
      progress.every((i) => i < result),
      `call ${id}: every progress message before the result`,
    );
  }
});
