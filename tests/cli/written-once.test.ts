import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Written once (issue 40), as a person reads it at the CLI: `propose`'s notes name each repeat it
 * writes once, with the reason, and `propose --json` marks it `repeat` in `merged`.
 */
const BODY =
  '## Testing\n\n- Run the unit tests with vitest before each commit.\n- Keep fixtures small and named after the case.\n\n' +
  '## Style\n\n- Use two spaces for indentation in every file.\n';

function propose(repo: string, ...args: string[]): string {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  delete env.COPILOT_ONBOARD_REPO;
  const r = spawnSync(process.execPath, [CLI, 'propose', '--repo', repo, ...args], { encoding: 'utf8', input: '', env });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('propose names the lines a source says twice as written once, with the reason, in text and JSON', async (t) => {
  const repo = sandbox(t, { 'CLAUDE.md': `# Project\n\n${BODY}\n# Project\n\n${BODY}` });
  const text = propose(repo);
  assert.ok(
    text.includes(
      'Note: CLAUDE.md: lines 16, 17, 21 repeat what the same section says before (lines 5, 6, 10), word for word: written once in .github/copilot-instructions.md.',
    ),
    text,
  );
  const json = JSON.parse(propose(repo, '--json')) as { merged: { path: string; line: number; repeat?: true }[] };
  assert.deepEqual(
    json.merged.filter((m) => m.repeat).map((m) => m.line),
    [16, 17, 21],
  );
});
