import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { Plan } from '../../server/src/planning/plan.js';
import { plannedTwice, round } from '../helpers/sandbox.js';
import { sameOrDemoted } from '../../server/src/model/unit-shape.js';

/**
 * A unit is merged away only into an equal unit another file wrote into the same target, one copy
 * per merging file; a repeat inside one file is removed only where it says again, word for word,
 * what the same section said before it (issue 40: written once, named in `merged` as a repeat).
 */
const COPILOT = '.github/copilot-instructions.md';

const migrate = plannedTwice;

const count = (text: string, line: string) => text.split('\n').filter((l) => l === line).length;
const ops = (p: Plan) => p.operations.map((o) => `${o.op} ${o.path}`);

test('a closing tag repeated inside one scoped rule is written as often as the rule has it', async (t) => {
  const tab = (tool: string) => [`<Tab title="${tool}">`, '', `Run ${tool} test.`, '', '</Tab>', ''];
  const tabs = ['<Tabs>', '', ...tab('npm'), ...tab('pnpm'), ...tab('yarn'), '</Tabs>'];
  const { first, second, read } = await migrate(t, {
    '.cursor/rules/docs.mdc': ['---', 'globs: docs/**', 'alwaysApply: false', '---', ...tabs, ''].join('\n'),
  });
  const target = first.operations.find((o) => o.path.endsWith('.instructions.md'))!.path;
  assert.equal(count(read(target), '</Tab>'), 3, read(target));
  assert.deepEqual(first.merged, []);
  assert.deepEqual(ops(second), [], 'the second plan is a no-op');
});

test('a bullet repeated inside one section of AGENTS.md is written once, and named as a repeat', async (t) => {
  const { first, second, read } = await migrate(t, {
    'AGENTS.md': '# Agents\n\n- Run the tests.\n- Keep commits small.\n- Run the tests.\n',
  });
  assert.equal(count(read(COPILOT), '- Run the tests.'), 1, read(COPILOT));
  assert.deepEqual(
    first.merged.map((m) => `${m.path}:${m.line} -> ${m.keptAt.path}:${m.keptAt.line}${m.repeat ? ' (repeat)' : ''}`),
    ['AGENTS.md:5 -> AGENTS.md:3 (repeat)'],
  );
  assert.deepEqual(ops(second), []);
});

test('the same bullet once in AGENTS.md and once in CLAUDE.md lands once', async (t) => {
  const { first, second, read } = await migrate(t, {
    'AGENTS.md': '- Run the tests.\n- Keep commits small.\n',
    'CLAUDE.md': '- Run the tests.\n',
  });
  assert.equal(count(read(COPILOT), '- Run the tests.'), 1, read(COPILOT));
  assert.deepEqual(
    first.merged.map((m) => `${m.path}:${m.line} -> ${m.keptAt.path}:${m.keptAt.line}`),
    ['CLAUDE.md:1 -> AGENTS.md:1'],
  );
  assert.deepEqual(ops(second), []);
});

test('one file with X twice in a section and another with X once give X once, in either order', async (t) => {
  for (const [agents, claude] of [
    ['- Follow the X rule.\n- Other rule.\n', '- Follow the X rule.\n- Y rule.\n- Follow the X rule.\n'],
    ['- Follow the X rule.\n- Y rule.\n- Follow the X rule.\n', '- Follow the X rule.\n- Other rule.\n'],
  ] as const) {
    const { first, second, read } = await migrate(t, { 'AGENTS.md': agents, 'CLAUDE.md': claude });
    assert.equal(count(read(COPILOT), '- Follow the X rule.'), 1, read(COPILOT));
    assert.equal(first.merged.length, 2, JSON.stringify(first.merged));
    const [repeat, copy] = [first.merged.filter((m) => m.repeat), first.merged.filter((m) => !m.repeat)];
    assert.equal(repeat.length, 1, JSON.stringify(first.merged));
    assert.notEqual(copy[0]!.path, copy[0]!.keptAt.path, "merged into another file's copy");
    assert.deepEqual(ops(second), []);
  }
});

test('a copy written from other files is shared by every file that merges into it', async (t) => {
  const { first, second, read } = await migrate(t, { 'AGENTS.md': '- X rule.\n', 'CLAUDE.md': '- X rule.\n', 'GEMINI.md': '- X rule.\n' });
  assert.equal(count(read(COPILOT), '- X rule.'), 1, read(COPILOT));
  assert.deepEqual(first.merged.map((m) => `${m.path} -> ${m.keptAt.path}`).sort(), ['CLAUDE.md -> AGENTS.md', 'GEMINI.md -> AGENTS.md']);
  assert.deepEqual(ops(second), []);
});

test('an existing structured copilot-instructions.md with a repeated bullet is left byte for byte', async (t) => {
  const text = '# Project\n\n## Testing\n\n- Run the tests.\n\n## Style\n\n- Run the tests.\n- Keep lines short.\n';
  const { first, second, read } = await migrate(t, { [COPILOT]: text });
  assert.deepEqual(ops(first), []);
  assert.deepEqual(first.merged, []);
  assert.equal(read(COPILOT), text);
  assert.deepEqual(ops(second), []);
});

test('a flat copilot-instructions.md put in sections keeps its repeated bullet', async (t) => {
  const text = '# Project\n\n- Use pnpm to install.\n- Write tests with vitest.\n- Use pnpm to install.\n';
  const { first, second, read } = await migrate(t, { [COPILOT]: text });
  assert.equal(count(read(COPILOT), '- Use pnpm to install.'), 2, read(COPILOT));
  assert.deepEqual(first.merged, []);
  assert.deepEqual(ops(second), []);
});

test("a legacy file repeating a bullet of Copilot's file in one section merges both into Copilot's copy; its new line goes after the person's text", async (t) => {
  const { first, second, read } = await migrate(t, {
    [COPILOT]: '# Project\n\n## Testing\n\n- Run the tests.\n',
    'AGENTS.md': '## Testing\n\n- Run the tests.\n- Add a test per fix.\n- Run the tests.\n',
  });
  assert.equal(count(read(COPILOT), '- Run the tests.'), 1, read(COPILOT));
  assert.deepEqual(
    first.merged.map((m) => `${m.path}:${m.line} -> ${m.keptAt.path}:${m.keptAt.line}${m.repeat ? ' (repeat)' : ''}`),
    [`AGENTS.md:3 -> ${COPILOT}:5`, `AGENTS.md:5 -> ${COPILOT}:5 (repeat)`],
  );
  assert.equal(read(COPILOT), '# Project\n\n## Testing\n\n- Run the tests.\n\n## General\n\n### Testing\n\n- Add a test per fix.\n');
  assert.deepEqual(ops(second), []);
});

test('a section heading repeated inside one legacy file is written twice', async (t) => {
  const { first, second, read } = await migrate(t, {
    'AGENTS.md': '# Laravel\n\n## Database\n\n- Use migrations.\n\n# Laravel 12\n\n## Database\n\n- Casts go in a casts() method.\n',
  });
  const out = read(COPILOT);
  assert.equal(count(out, '### Database'), 2, out);
  assert.ok(out.indexOf('- Use migrations.') < out.lastIndexOf('### Database'), 'the second section keeps what was under it');
  assert.ok(out.lastIndexOf('### Database') < out.indexOf('- Casts go in a casts() method.'), out);
  assert.deepEqual(first.merged, []);
  assert.deepEqual(ops(second), []);
});

test("a title kept in a comment is found again by every file that had it, and a file's second copy of a title is its own", async (t) => {
  const a = await migrate(t, { 'AGENTS.md': '# Title\n', '.windsurfrules': '# Title\n' });
  assert.equal(count(a.read(COPILOT), '# Title'), 1, a.read(COPILOT));
  assert.deepEqual(ops(a.second), []);
  const b = await migrate(t, { [COPILOT]: '- X rule.\n\n# Title\n', '.windsurfrules': '# Title\n\n# Title\n\n- Y rule.\n' });
  const out = b.read(COPILOT);
  // Copilot's file has sections (its `# Title` below a rule opens one): it keeps its shape; the second title is the file's own.
  assert.equal(count(out, '# Title') + count(out, '## Title'), 2, out);
  assert.deepEqual(
    b.first.merged.map((m) => `${m.path}:${m.line}`),
    ['.windsurfrules:1'],
  );
  assert.deepEqual(ops(b.second), []);
});

test('a label last in its file introduces nothing: a second plan finds it and writes it no more', async (t) => {
  const { first, second, read } = await migrate(t, { '.cursor/rules/b.mdc': '---\nglobs: docs/**\nalwaysApply: false\n---\nSteps:\n' });
  const target = first.operations[0]!.path;
  assert.equal(count(read(target), 'Steps:'), 1);
  assert.deepEqual(ops(second), []);
});

test("property: every file's lines land as often as it has them, and a second plan is a no-op", async () => {
  const pieces = [
    '## General',
    '# Copilot instructions',
    '- Use pnpm to install.',
    '## Build and dependencies',
    '- X rule.',
    '- Y rule.',
    '---',
    '</Tab>',
    '| a | b |',
    '## Database',
    '# Title',
    '### Example',
    '**Example:**',
    '```sh\nnpm test\n```',
    'Steps:',
    'Plain paragraph.',
    '- Run the tests with vitest.',
    'Otherwise, use npm to install.',
    '1. Install the tools',
    '- Use npm to install dependencies.',
    'Setup:',
    '   indented continuation',
    '  - nested rule.',
    '    four spaces',
  ];
  const body = (extra: string[] = []) =>
    fc
      .array(fc.constantFrom(...pieces, ...extra), { maxLength: 8 })
      .filter((xs) => xs[0] !== '---')
      .map((xs) => `${xs.join('\n\n')}\n`);
  const mdc = body().map((b) => `---\nglobs: docs/**\nalwaysApply: false\n---\n${b}`);
  // Left out, being known apart from this rule: code left open in a scoped rule or in Copilot's own
  // file (what follows lands in the code), and a `---` block opening a file without front matter.
  const files = fc.record({
    'AGENTS.md': fc.option(body(['```sh\nopen'])),
    'CLAUDE.md': fc.option(body()),
    [COPILOT]: fc.option(body()),
    '.cursor/rules/a.mdc': fc.option(mdc),
    '.cursor/rules/b.mdc': fc.option(mdc),
  });
  await fc.assert(
    fc.asyncProperty(files, async (f) => {
      const input = Object.fromEntries(Object.entries(f).filter((e): e is [string, string] => e[1] !== null));
      const cleanup = round();
      const { repo, first, second, read } = await migrate(cleanup, input);
      try {
        const scoped = fs.existsSync(path.join(repo, '.github/instructions'))
          ? fs.readdirSync(path.join(repo, '.github/instructions')).map((n) => `.github/instructions/${n}`)
          : [];
        const out = [COPILOT, ...scoped].filter((p) => fs.existsSync(path.join(repo, p))).flatMap((p) => read(p).split('\n'));
        // A file the plan leaves out with a note (a copy of another, analysis/repeats/copies.ts) lands through the file it copies.
        const leftOut = new Set(first.sources.filter((x) => x.notRule).map((x) => x.path));
        // A heading whose section holds only what the target says already goes with it, named as merged into
        // the target's heading (issue 40; seed 1343765116: "## Database" over two lines the Copilot file has).
        const mergedAt = new Set(first.merged.map((m) => `${m.path}:${m.line}`));
        for (const [p, text] of Object.entries(input)) {
          if (leftOut.has(p)) continue;
          const lines = (p.endsWith('.mdc') ? text.split('\n').slice(4) : text.split('\n')).filter((l) => l.trim() !== '');
          const headingMerged = (line: string) =>
            /^#{1,6} /.test(line) && text.split('\n').every((l, i) => l !== line || mergedAt.has(`${p}:${i + 1}`));
          for (const line of new Set(lines)) {
            if (headingMerged(line)) continue;
            // A heading may move down with its tree, and a pseudo-heading become a heading: `#`s before the line.
            const found = out.filter((l) => sameOrDemoted(line, l)).length;
            // A heading repeated among its siblings in one file is one section: written at least once.
            const asHeading = out.some((l) => /^#{1,6} /.test(l) && sameOrDemoted(line, l));
            // A repeat of what its section said before is written once (issue 40), and named as one (a unit of
            // lines as one entry: seed -1824552936, a bullet with its indented continuation said twice).
            const repeats = first.merged.filter((m) => m.path === p && m.repeat && m.text.split('\n').includes(line)).length;
            // A copy merged into the same line written elsewhere (another section, another file) lands through it
            // (seed 1050702485: CLAUDE.md's line above its "## General", and again under it, both in the Copilot file's "## General").
            const intoSame = first.merged.filter(
              (m) =>
                m.path === p &&
                !m.repeat &&
                m.text === line &&
                sameOrDemoted(line, input[m.keptAt.path]?.split('\n')[m.keptAt.line - 1] ?? ''),
            ).length;
            const need = lines.filter((l) => l === line).length - repeats - intoSame;
            assert.ok(found >= (asHeading ? 1 : Math.max(need, intoSame > 0 ? 1 : 0)), `${p}: ${line}`);
          }
        }
        assert.deepEqual(ops(second), []);
      } finally {
        await cleanup.done();
      }
    }),
    // A fixed seed by default, so a run as CI runs it is the same every time; FUZZ_SEED=random (with
    // FUZZ_RUNS=3000) searches. Open (a second plan is no no-op): seed 900306522 (a numbered step written as a
    // heading parts "Otherwise, use npm" from "Use pnpm", which the next analysis then reports) and seed
    // 117156592 with FUZZ_RUNS=3000 (an empty "## General", a title and a lone `</Tab>`). See CHANGELOG, Known issues.
    {
      numRuns: Number(process.env.FUZZ_RUNS ?? 60),
      seed: process.env.FUZZ_SEED === 'random' ? undefined : Number(process.env.FUZZ_SEED ?? 20261129),
    },
  );
});
