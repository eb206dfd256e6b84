import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { analyze } from '../../server/src/analysis/analyze.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { sandbox, tempDir, writeFile, type Cleanup } from '../helpers/sandbox.js';

async function planFor(t: Cleanup, files: Record<string, string | Buffer>, opts: { git?: boolean } = {}) {
  const repo = opts.git === false ? tempDir(t, 'co-nogit-') : sandbox(t);
  for (const [rel, content] of Object.entries(files)) writeFile(repo, rel, content);
  const scan = await scanRepository(repo);
  const analysis = analyze(scan);
  const plan = buildPlan(scan, analysis);
  const content = (p: string) => plan.operations.find((o) => o.path === p)?.content ?? null;
  return { repo, scan, analysis, plan, content };
}

const kinds = (scan: Awaited<ReturnType<typeof scanRepository>>) => Object.fromEntries(scan.sources.map((s) => [s.path, s.kind]));

test('every format is found and recognised', async (t) => {
  const { scan } = await planFor(t, {
    '.github/copilot-instructions.md': '- Use pnpm.\n',
    '.github/instructions/api.instructions.md': '---\napplyTo: "src/api/**"\n---\n- Validate input.\n',
    'AGENTS.md': '- Write tests.\n',
    'pkg/AGENTS.md': '- Package rule.\n',
    'CLAUDE.md': '- Claude rule.\n',
    '.claude/CLAUDE.md': '- Claude folder rule.\n',
    'GEMINI.md': '- Gemini rule.\n',
    '.cursorrules': '- Cursor rule.\n',
    '.cursor/rules/a.mdc': '---\nglobs: src/**\n---\n- A rule.\n',
    '.cursor/rules/nested/b.md': '---\nalwaysApply: true\n---\n- B rule.\n',
    '.windsurfrules': '- Windsurf rule.\n',
    '.windsurf/rules/w.md': '---\ntrigger: glob\nglobs: "*.py"\n---\n- Python rule.\n',
    '.clinerules/general.md': '- Cline rule.\n',
    'README.md': '# Not an instruction file\n',
  });
  assert.deepEqual(kinds(scan), {
    '.github/copilot-instructions.md': 'copilot-instructions',
    '.github/instructions/api.instructions.md': 'copilot-path-instructions',
    'AGENTS.md': 'agents-md',
    'pkg/AGENTS.md': 'agents-md',
    '.claude/CLAUDE.md': 'claude-md',
    'CLAUDE.md': 'claude-md',
    'GEMINI.md': 'gemini-md',
    '.cursorrules': 'cursorrules',
    '.cursor/rules/a.mdc': 'cursor-rules',
    '.cursor/rules/nested/b.md': 'cursor-rules',
    '.windsurfrules': 'windsurfrules',
    '.windsurf/rules/w.md': 'windsurf-rules',
    '.clinerules/general.md': 'clinerules',
  });
});

test('applyTo in .instructions.md is read as a string, a comma list or a YAML list, with excludeAgent and description', async (t) => {
  const { scan } = await planFor(t, {
    '.github/instructions/a.instructions.md': '---\napplyTo: "src/**"\ndescription: "API rules"\nexcludeAgent: "coding-agent"\n---\n- A.\n',
    '.github/instructions/b.instructions.md': '---\napplyTo: src/**, lib/**\nexcludeAgent: cloud-agent\n---\n- B.\n',
    '.github/instructions/c.instructions.md': '---\napplyTo:\n  - "docs/**"\n  - "*.md"\n---\n- C.\n',
  });
  const doc = (p: string) => scan.docs.find((d) => d.path === `.github/instructions/${p}`)!;
  assert.deepEqual(doc('a.instructions.md').scope, { kind: 'globs', globs: ['src/**'] });
  assert.equal(doc('a.instructions.md').description, 'API rules');
  assert.deepEqual(doc('a.instructions.md').excludeAgent, ['coding-agent']);
  assert.deepEqual(doc('b.instructions.md').scope, { kind: 'globs', globs: ['src/**', 'lib/**'] });
  assert.deepEqual(doc('b.instructions.md').excludeAgent, ['cloud-agent']);
  assert.deepEqual(doc('c.instructions.md').scope, { kind: 'globs', globs: ['docs/**', '*.md'] });
});

test('.mdc rules: globs joined into applyTo, alwaysApply goes repo-wide, a description alone is applied on request', async (t) => {
  const { content, plan } = await planFor(t, {
    '.cursor/rules/api.mdc':
      '---\ndescription: API conventions\nglobs: src/api/**/*.ts, src/routes/**\nalwaysApply: false\n---\n- Validate every request body.\n',
    '.cursor/rules/unquoted.mdc': '---\nglobs: **/*.test.ts\n---\n- Name tests after behaviour.\n',
    '.cursor/rules/list.mdc': '---\nglobs:\n  - "docs/**"\n  - "*.md"\n---\n- Wrap prose at 100 columns.\n',
    '.cursor/rules/always.mdc': '---\ndescription:\nglobs:\nalwaysApply: true\n---\n- Keep functions small.\n',
    '.cursor/rules/ondemand.mdc':
      '---\ndescription: How to write migrations\nglobs:\nalwaysApply: false\n---\n- Migrations are reversible.\n',
  });
  assert.equal(
    content('.github/instructions/api.instructions.md'),
    '---\napplyTo: "src/api/**/*.ts,src/routes/**"\ndescription: "API conventions"\n---\n\n- Validate every request body.\n',
  );
  assert.match(content('.github/instructions/unquoted.instructions.md')!, /^applyTo: "\*\*\/\*\.test\.ts"$/m);
  assert.match(content('.github/instructions/list.instructions.md')!, /^applyTo: "docs\/\*\*,\*\*\/\*\.md"$/m);
  assert.match(content('.github/copilot-instructions.md')!, /^- Keep functions small\.$/m);
  const onDemand = content('.github/instructions/ondemand.instructions.md')!;
  assert.doesNotMatch(onDemand, /applyTo/);
  assert.match(onDemand, /^description: "How to write migrations"$/m);
  assert.ok(plan.notes.some((n) => /ondemand\.instructions\.md .*on request/.test(n)));
});

test('a glob without a slash applies at every depth: each comma-separated part gets **/, and the notes show every glob rewritten', async (t) => {
  const { content, plan } = await planFor(t, {
    '.cursor/rules/react.mdc': '---\nglobs: *.tsx,*.ts\n---\n- Components are function components.\n',
    'web/.cursor/rules/styles.mdc': '---\nglobs: "*.css, src/**/*.scss"\n---\n- Use CSS variables for colours.\n',
    '.windsurf/rules/py.md': '---\ntrigger: glob\nglobs: "*.py"\n---\n- Use type hints.\n',
    '.claude/rules/config.md': '---\npaths:\n  - "package.json"\n  - "src/**"\n---\n- Pin exact versions.\n',
  });
  assert.match(content('.github/instructions/react.instructions.md')!, /^applyTo: "\*\*\/\*\.tsx,\*\*\/\*\.ts"$/m);
  assert.match(content('.github/instructions/web-styles.instructions.md')!, /^applyTo: "web\/\*\*\/\*\.css,web\/src\/\*\*\/\*\.scss"$/m);
  assert.match(content('.github/instructions/py.instructions.md')!, /^applyTo: "\*\*\/\*\.py"$/m);
  assert.match(content('.github/instructions/config.instructions.md')!, /^applyTo: "\*\*\/package\.json,src\/\*\*"$/m);
  const rewritten = plan.notes.filter((n) => n.includes('is written "'));
  assert.equal(rewritten.length, 4);
  assert.ok(rewritten.some((n) => n.startsWith('.cursor/rules/react.mdc: "*.tsx" is written "**/*.tsx", "*.ts" is written "**/*.ts" in')));
  assert.ok(rewritten.some((n) => n.includes('"*.css" is written "web/**/*.css"') && !n.includes('scss')));
  assert.ok(rewritten.some((n) => n.includes('"package.json" is written "**/package.json"') && !n.includes('src/**')));
});

test('nested AGENTS.md, CLAUDE.md and GEMINI.md apply to their folder', async (t) => {
  const { content } = await planFor(t, {
    'packages/core/AGENTS.md': '- Core rule.\n',
    'apps/web/CLAUDE.md': '- Web rule.\n',
    'tools/GEMINI.md': '- Tools rule.\n',
  });
  assert.match(content('.github/instructions/packages-core.instructions.md')!, /^applyTo: "packages\/core\/\*\*"$/m);
  assert.match(content('.github/instructions/apps-web.instructions.md')!, /^applyTo: "apps\/web\/\*\*"$/m);
  assert.match(content('.github/instructions/tools.instructions.md')!, /^applyTo: "tools\/\*\*"$/m);
});

test('a CLAUDE.md that only imports AGENTS.md, and a symlinked one, are aliases read once', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '- Use pnpm for packages.\n- Keep commits small and focused.\n', 'CLAUDE.md': '@AGENTS.md\n' });
  fs.mkdirSync(path.join(repo, 'docs'));
  writeFile(repo, 'docs/AGENTS.md', '- Docs rule here.\n');
  fs.symlinkSync('AGENTS.md', path.join(repo, 'docs/CLAUDE.md'));
  const scan = await scanRepository(repo);
  const src = (p: string) => scan.sources.find((s) => s.path === p)!;
  assert.equal(src('CLAUDE.md').aliasOf, 'AGENTS.md');
  assert.equal(src('docs/CLAUDE.md').aliasOf, 'docs/AGENTS.md');
  const a = analyze(scan);
  assert.deepEqual(a.problems, [], 'an alias is not a duplicate of its target');
  const plan = buildPlan(scan, a);
  assert.ok(plan.notes.some((n) => n.startsWith('CLAUDE.md points at AGENTS.md')));
  assert.deepEqual(plan.legacy.find((l) => l.path === 'AGENTS.md')!.fates, ['keep'], 'a file others point at cannot be removed');
});

test('.clinerules folder: rules migrate, a README and workflows are reported and not migrated', async (t) => {
  const { scan, content, plan } = await planFor(t, {
    '.clinerules/general.md': '- Always run the linter before pushing.\n',
    '.clinerules/README.md': '# About these rules\n',
    '.clinerules/workflows/release.md': '# Release steps\n1. Tag it.\n',
  });
  assert.equal(scan.sources.find((s) => s.path === '.clinerules/README.md')!.notRule, 'a README inside the rules folder, not a rule');
  assert.match(scan.sources.find((s) => s.path === '.clinerules/workflows/release.md')!.notRule!, /workflow/);
  const out = content('.github/copilot-instructions.md')!;
  assert.match(out, /Always run the linter/);
  assert.doesNotMatch(out, /About these rules|Tag it/);
  assert.ok(plan.notes.some((n) => n.startsWith('.clinerules/README.md is a README')));
});

test('.clinerules as a single file and .windsurfrules go repo-wide; windsurf glob rules are scoped', async (t) => {
  const { content } = await planFor(t, {
    '.clinerules': '- Prefer small pull requests.\n',
    '.windsurfrules': '- Explain every shell command you run.\n',
    '.windsurf/rules/py.md': '---\ntrigger: glob\nglobs: "**/*.py"\n---\n- Use type hints everywhere.\n',
  });
  const out = content('.github/copilot-instructions.md')!;
  assert.match(out, /Prefer small pull requests/);
  assert.match(out, /Explain every shell command/);
  assert.match(content('.github/instructions/py.instructions.md')!, /^applyTo: "\*\*\/\*\.py"$/m);
});

test('discovery honours .gitignore and never enters node_modules or vendor', async (t) => {
  const { scan } = await planFor(t, {
    '.gitignore': 'generated/\n',
    'AGENTS.md': '- Root rule.\n',
    'generated/AGENTS.md': '- Ignored rule.\n',
    'node_modules/pkg/AGENTS.md': '- Dependency rule.\n',
    'vendor/lib/CLAUDE.md': '- Vendored rule.\n',
  });
  assert.deepEqual(
    scan.sources.map((s) => s.path),
    ['AGENTS.md'],
  );
});

test('without git, a walk finds the same files and honours .gitignore', async (t) => {
  const { scan } = await planFor(
    t,
    {
      '.gitignore': 'generated/\n*.local.md\n',
      'AGENTS.md': '- Root rule.\n',
      'generated/AGENTS.md': '- Ignored rule.\n',
      'node_modules/pkg/AGENTS.md': '- Dependency rule.\n',
      'src/CLAUDE.md': '- Source rule.\n',
    },
    { git: false },
  );
  assert.deepEqual(scan.sources.map((s) => s.path).sort(), ['AGENTS.md', 'src/CLAUDE.md']);
});

test('CRLF, a BOM and a missing final newline are kept in files that are left alone, and in the style of rewritten ones', async (t) => {
  const agents = '\uFEFF- Keep CRLF here.\r\n- And here.';
  const { repo, content } = await planFor(t, {
    'AGENTS.md': agents,
    '.github/copilot-instructions.md': '\uFEFF# Rules\r\n\r\n- Use pnpm.\r\n',
  });
  assert.equal(fs.readFileSync(path.join(repo, 'AGENTS.md'), 'utf8'), agents, 'analysis and planning change nothing');
  const out = content('.github/copilot-instructions.md')!;
  assert.ok(out.startsWith('\uFEFF# Rules\r\n'), 'BOM and CRLF of the Copilot file are kept');
  assert.ok(!/[^\r]\n/.test(out), 'every line ends in CRLF');
});

test('binary and oversized instruction files are reported, not read', async (t) => {
  const { scan, plan } = await planFor(t, { 'AGENTS.md': Buffer.from([0, 1, 2, 3]), 'CLAUDE.md': '- x\n'.repeat(400_000) });
  assert.deepEqual(scan.skipped.map((s) => [s.path, s.reason]).sort(), [
    ['AGENTS.md', 'binary'],
    ['CLAUDE.md', 'too_large'],
  ]);
  assert.deepEqual(plan.operations, []);
});

test('every non-blank source line lands exactly once, and duplicates across files are merged and listed', async (t) => {
  const { plan, content } = await planFor(t, {
    '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n- Run tests with vitest before every commit.\n',
    'AGENTS.md':
      '# Agents\n\n- Use pnpm for all package management.\n- Never commit secrets or API keys.\n\n## Testing\n\n- Cover every bug fix with a regression test.\n',
    '.cursorrules': '- Never commit secrets or API keys.\n',
  });
  const out = content('.github/copilot-instructions.md')!;
  const count = (line: string) => out.split('\n').filter((l) => l === line).length;
  assert.equal(count('- Use pnpm for all package management.'), 1);
  assert.equal(count('- Never commit secrets or API keys.'), 1);
  assert.equal(count('- Cover every bug fix with a regression test.'), 1);
  assert.equal(count('## Agents'), 1, 'a legacy title over rules becomes their ## section');
  assert.equal(count('# Agents'), 0);
  assert.deepEqual(
    plan.merged.map((m) => `${m.path}:${m.line}`).sort(),
    // AGENTS.md's `## Testing` is a chapter of "Agents" (### Testing under ## Agents), not the flat file's Testing section.
    ['.cursorrules:1', 'AGENTS.md:3'],
  );
  assert.ok(plan.provenance.some((p) => p.from.path === 'AGENTS.md' && p.to.path === '.github/copilot-instructions.md'));
});

test('the plan is deterministic and a migrated repository plans nothing', async (t) => {
  const files = {
    'AGENTS.md': '- Use pnpm.\n- Never use npm.\n',
    '.cursor/rules/api.mdc': '---\nglobs: src/**\n---\n- Validate input.\n',
    'pkg/CLAUDE.md': '- Package rule.\n',
  };
  const a = await planFor(t, files);
  const b = await planFor(t, files);
  assert.equal(a.plan.planHash, b.plan.planHash);
  assert.deepEqual(a.plan.operations, b.plan.operations);
  for (const op of a.plan.operations) writeFile(a.repo, op.path, op.content!);
  const again = buildPlan(await scanRepository(a.repo));
  assert.deepEqual(again.operations, []);
});

test('scope-aware contradictions: CSS against JavaScript and docs/** against src/** do not contradict', async (t) => {
  const { analysis } = await planFor(t, {
    '.cursor/rules/css.mdc': '---\nglobs: "**/*.css"\n---\n- Indent with 4 spaces.\n',
    '.cursor/rules/ts.mdc': '---\nglobs: "**/*.ts"\n---\n- Indent with 2 spaces.\n',
    '.cursor/rules/docs.mdc': '---\nglobs: docs/**\n---\n- Use yarn to build the docs.\n',
    '.cursor/rules/src.mdc': '---\nglobs: src/**\n---\n- Use pnpm to build the sources.\n',
    'AGENTS.md': '- Use 2 spaces in JavaScript files.\n- Use 4 spaces in CSS files.\n',
  });
  assert.deepEqual(
    analysis.problems.filter((p) => p.type === 'contradiction'),
    [],
  );
});

test('contradictions across files: topic table, versions and always/never', async (t) => {
  const { analysis } = await planFor(t, {
    'AGENTS.md': '- Use pnpm for installs.\n- Target Python 3.11.\n- We build on Remix 2.1 today.\n- Always use barrel files.\n',
    'CLAUDE.md': '- Use yarn for installs.\n- Target Python 3.12.\n- The app runs Remix 2.17.4.\n- Never use barrel files.\n',
  });
  const found = analysis.problems.filter((p) => p.type === 'contradiction').map((p) => p.description);
  assert.ok(
    found.some((d) => /package manager/.test(d)),
    found.join('\n'),
  );
  assert.ok(
    found.some((d) => /Python version.*3\.11.*3\.12/.test(d)),
    found.join('\n'),
  );
  assert.ok(
    found.some((d) => /Remix version.*2\.1.*2\.17\.4/.test(d)),
    found.join('\n'),
  );
  assert.ok(
    found.some((d) => /use barrel files/.test(d)),
    found.join('\n'),
  );
  assert.equal(analysis.pattern, 'messy');
  for (const p of analysis.problems) for (const l of p.locations) assert.ok(l.path && l.line >= 1);
});

test('near-identical paragraphs across files are reported with both locations', async (t) => {
  const { analysis } = await planFor(t, {
    'AGENTS.md': 'Run the full test suite with coverage before opening any pull request against main.\n',
    'CLAUDE.md': 'Run the full test suite with coverage before opening a pull request against the main branch.\n',
  });
  const near = analysis.problems.find((p) => /Near-identical/.test(p.description));
  assert.ok(near, JSON.stringify(analysis.problems));
  assert.deepEqual(near!.locations, [
    { path: 'AGENTS.md', line: 1 },
    { path: 'CLAUDE.md', line: 1 },
  ]);
});

void execFileSync;
