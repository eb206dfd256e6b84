import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findContradictions } from '../../server/src/analysis/analyze.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';

/**
 * Issue 39, the reported tier: precision first. What a careful reader does not call a conflict (a
 * description, a hedged tip, a fallback for one case, an item of a list headed "don't", part of a
 * longer name), each next to the same pair written as a real conflict, which stays reported.
 * Every text is invented.
 */

const contradictions = (files: Record<string, string>) =>
  findContradictions(Object.entries(files).flatMap(([p, text]) => splitUnits(p, text.split('\n'))));
const shown = (files: Record<string, string>) => JSON.stringify(contradictions(files).map((p) => p.description));

test('a tool named in a compound adjective describes, it does not choose: "Mocha-style hooks", "Vitest-compatible matchers"', () => {
  const steps = '# Tests\n\n- Scripts under `tools/` are tested with `node --test`.\n';
  for (const describing of [
    '- The harness gives a quick, modern runner with Mocha-style hooks.\n',
    '- Our test helpers ship with Vitest-compatible matchers and a watch mode.\n',
    '- The runner we test with is compatible with Jasmine for spies.\n',
  ])
    assert.deepEqual(contradictions({ 'AGENTS.md': describing, 'tools/README.md': steps }), [], describing);
  const chosen = { 'AGENTS.md': '- Write every test with Mocha.\n', 'tools/README.md': steps };
  assert.equal(contradictions(chosen).length, 1, shown(chosen));
});

test('a hedged tip is no ban: "instead of `make all` where practical" leaves a build step running `make all`', () => {
  const steps = '# Build\n\n```bash\nmake all -j8\n```\n';
  for (const hedged of [
    '## Troubleshooting\n\n### Slow rebuilds\n\n- Run `make quick` instead of `make all` where practical.\n',
    '- Prefer `make quick` rather than `make all` if you can.\n',
    '- Use `make quick` instead of `make all` for speed.\n',
  ])
    assert.deepEqual(contradictions({ 'AGENTS.md': hedged, 'CLAUDE.md': steps }), [], hedged);
  const banned = { 'AGENTS.md': '- Run `make quick` instead of `make all`.\n', 'CLAUDE.md': steps };
  assert.equal(contradictions(banned).length, 1, shown(banned));
  // "Avoid X when possible" against "use X for the rare cases": both stand.
  assert.deepEqual(
    contradictions({
      'AGENTS.md': '- Avoid `unsafe` blocks where feasible.\n',
      'CLAUDE.md': '- Use `unsafe` for the FFI boundary.\n',
    }),
    [],
  );
  const avoided = { 'AGENTS.md': '- Avoid `unsafe` blocks.\n', 'CLAUDE.md': '- Use `unsafe` for the FFI boundary.\n' };
  assert.equal(contradictions(avoided).length, 1, shown(avoided));
});

test('a fallback for one case is an exception, not a ban: "instead of `make lint` when the schema server is down"', () => {
  const rule = '- Run `make lint` to catch problems early.\n';
  for (const fallback of [
    '- Use `make lint-lite` instead of `make lint` when the schema server is down.\n',
    '- Use `make lint-lite` instead of `make lint` unless the network is up.\n',
    '- If the linter crashes, run `make lint-lite` instead of `make lint`.\n',
  ])
    assert.deepEqual(contradictions({ 'AGENTS.md': fallback, 'CLAUDE.md': rule }), [], fallback);
  const ban = { 'AGENTS.md': '- Use `make lint-lite` instead of `make lint`.\n', 'CLAUDE.md': rule };
  assert.equal(contradictions(ban).length, 1, shown(ban));
});

test('an item of a list headed "don\'t" carries the negation: it agrees with a ban and meets a requirement', () => {
  const ban = '# Releases\n\n- You must never bypass the release checklist.\n';
  for (const list of [
    '# Pitfalls\n\n✅ **Do:**\n\n- Keep the entry short\n\n🚫 **Avoid:**\n\n- Skip the release checklist\n',
    "# Pitfalls\n\n**Don't:**\n- Skip the release checklist\n- Merge without a review\n",
    '## Things to avoid\n\n- Skip the release checklist\n',
    "### Don'ts\n\n- Skip the release checklist\n",
    "## Pitfalls\n\n- ✅ **Do:**\n  - Keep the entry short\n- ❌ **Don't:**\n  - Skip the release checklist\n",
  ])
    assert.deepEqual(contradictions({ 'AGENTS.md': list, 'CLAUDE.md': ban }), [], list);
  // Under "Do", the same item is an instruction, and it contradicts the ban.
  const doList = {
    'AGENTS.md': '# Pitfalls\n\n🚫 **Avoid:**\n\n- Rush it\n\n✅ **Do:**\n\n- Skip the release checklist\n',
    'CLAUDE.md': ban,
  };
  assert.equal(contradictions(doList).length, 1, shown(doList));
  const nestedDo = { 'AGENTS.md': '## Mistakes to avoid\n\n- ✅ **Do:**\n  - Skip the release checklist\n', 'CLAUDE.md': ban };
  assert.equal(contradictions(nestedDo).length, 1, shown(nestedDo));
  // A "don't" item against "always": reported.
  const required = {
    'AGENTS.md': "### Don'ts\n\n- Edit `schema.sql` by hand\n",
    'CLAUDE.md': '- Always edit `schema.sql` after a migration.\n',
  };
  assert.equal(contradictions(required).length, 1, shown(required));
});

test('a label that is a rule of its own ("Never call the raw socket API:") does not turn the items under it; an item with its own "always" or an arrow keeps it', () => {
  const lists = [
    // The label names what it forbids; the items are the files, and the arrow line says what to do instead.
    '## Constraints\n\n### What to avoid\n\n❌ **Never hand-edit the generated pages:**\n- `site/ref/api.md`\n- `site/ref/flags.md`\n→ Always run `make pages` after changes\n',
    // The label forbids one thing; the item under it is the alternative, a requirement.
    '## Constraints\n\n❌ **Never call the raw socket API:**\n- Always use the `netkit` wrapper\n- Checked by the linter\n',
    // Under a bare "Don\'t" label, an item with its own "always" says its own.
    "## Pitfalls\n\n❌ **Don't:**\n- Always use the `netkit` wrapper\n",
  ];
  const other = {
    'CLAUDE.md': '# Build\n\n```bash\nmake pages\n```\n\n## Network\n\n- ✅ ALWAYS use the `netkit` wrapper (checked by the linter)\n',
  };
  for (const list of lists) assert.deepEqual(contradictions({ 'AGENTS.md': list, ...other }), [], list);
  // A bare "Don't" label still turns a bare item.
  const dont = { 'AGENTS.md': "## Pitfalls\n\n❌ **Don't:**\n- Use the `netkit` wrapper\n", ...other };
  assert.equal(contradictions(dont).length, 1, shown(dont));
});

test('a tool name that is part of a longer name, or an argument of another command, is not that tool', () => {
  const uv = '- Use `uv` for Python dependencies.\n';
  const pipStep = '# Setup\n\n```bash\npip install -r requirements.txt\n```\n';
  for (const named of [
    '- Not allowed: `std::net` (use `uv-client` instead).\n',
    '- Use `uv.toml` for the resolver settings.\n',
    '- Use the `tools/uv/` wrapper for this.\n',
  ])
    assert.deepEqual(contradictions({ 'AGENTS.md': named, 'CLAUDE.md': pipStep }), [], named);
  const chosen = { 'AGENTS.md': uv, 'CLAUDE.md': pipStep };
  assert.equal(contradictions(chosen).length, 1, shown(chosen));
  // A continued command line: `pip` is an argument of the command before the backslash.
  const continued = { 'AGENTS.md': uv, 'CLAUDE.md': '# Setup\n\n```bash\nbuildtool run -- \\\n  pip install -r requirements.txt\n```\n' };
  assert.deepEqual(contradictions(continued), [], shown(continued));
  const argument = { 'AGENTS.md': uv, 'CLAUDE.md': '- Refresh pins with `buildtool run pip compile reqs.in`.\n' };
  assert.deepEqual(contradictions(argument), [], shown(argument));
});
