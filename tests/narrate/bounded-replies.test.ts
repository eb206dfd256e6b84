import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

const MIB = 1024 * 1024;
const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');

test('an AGENTS.md of 55,000 identical bullets: analyze and propose replies stay well under 1 MiB, the connection survives, and the whole plan reads back in pages', async (t) => {
  const agents = `# Rules\n\n${'- Keep it simple.\n'.repeat(55_000)}`;
  assert.ok(agents.length < MIB);
  const repo = sandbox(t, { 'AGENTS.md': agents });
  const samplings: number[] = [];
  const s = await openSession(t, {
    repo,
    elicit: yesToAll,
    sample: (req) => {
      samplings.push(size(req));
      return { model: 'm', role: 'assistant', content: { type: 'text', text: 'Fine.' } };
    },
  });
  const a = await s.call('onboarding_analyze');
  assert.equal(outcomeOf(a), 'analyzed');
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'proposed', textOf(p));
  for (const r of [a, p]) assert.ok(size(r) < MIB / 4, `a reply of ${size(r)} bytes`);
  for (const n of samplings) assert.ok(n < 64 * 1024, `a sampling request of ${n} bytes`);
  // The connection is still there, and says so.
  assert.equal(outcomeOf(await s.call('onboarding_status')), 'status');

  const sc = p.structuredContent as {
    truncated?: { resource?: string; omitted: Record<string, number> };
    operations: { path: string; diff: string }[];
  };
  assert.equal(sc.truncated?.resource, 'copilot-onboard://plan');
  assert.match(textOf(p), /copilot-onboard:\/\/plan/);
  const link = p.content.find((c) => c.type === 'resource_link') as { uri: string } | undefined;
  assert.equal(link?.uri, 'copilot-onboard://plan');

  // The plan on disk is whole; the resource gives it in pages, each well under 1 MiB.
  const onDisk = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/plan.json'), 'utf8'));
  const fullDiff: string = onDisk.operations[0].diff;
  let uri: string | undefined = link!.uri;
  let pages = 0;
  let all = '';
  while (uri) {
    const read = await s.client.readResource({ uri });
    const text = (read.contents[0] as { text: string }).text;
    assert.ok(size(read) < MIB / 2, `a page of ${size(read)} bytes`);
    pages++;
    all += text.replace(/\n\n\[Page \d+ of \d+\.(?: Next: \S+)?\]\n$/, '');
    uri = /Next: (\S+)\]\n$/.exec(text)?.[1];
  }
  assert.ok(pages > 1, `${pages} pages`);
  assert.ok(all.includes(fullDiff.trimEnd()), 'the pages together hold the whole diff');
});

test('a Copilot file that would pass the read limit is said so in the plan, with what to do', async (t) => {
  const prose = (word: string) => `# ${word}\n\n${`The ${word} service keeps its configuration in one place.\n`.repeat(11_000)}`;
  const repo = sandbox(t, { 'AGENTS.md': prose('alpha'), 'CLAUDE.md': prose('beta') });
  const s = await openSession(t, { repo, elicit: yesToAll });
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'proposed', textOf(p));
  const onDisk = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/plan.json'), 'utf8'));
  assert.ok(
    onDisk.notes.some((n: string) =>
      /^\.github\/copilot-instructions\.md would be \d+ bytes, over the 1048576-byte limit copilot-onboard reads/.test(n),
    ),
    onDisk.notes.join('\n'),
  );
});
