import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { analyze } from '../../server/src/analysis/analyze.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { connect, openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, sandbox } from '../helpers/sandbox.js';

/**
 * Three more instruction-file kinds: Roo Code's `.roorules`, Aider's `CONVENTIONS.md` and Claude
 * Code's `.claude/rules/**\/*.md`, each found, scoped and migrated through the real server.
 */

type Files = Record<string, string>;

async function session(t: { after(fn: () => unknown): void }, files: Files) {
  const repo = sandbox(t, files);
  const s = await openSession(t, { repo, elicit: yesToAll });
  return { repo, s };
}

async function kindsOf(s: Awaited<ReturnType<typeof connect>>): Promise<Record<string, string>> {
  const analyzed = (await s.call('onboarding_analyze')).structuredContent as any;
  assert.equal(analyzed.outcome, 'analyzed', JSON.stringify(analyzed).slice(0, 500));
  return Object.fromEntries(analyzed.sources.map((x: any) => [x.path, x.kind]));
}

/** The content each operation of the proposed plan writes, by path. */
async function proposed(s: Awaited<ReturnType<typeof connect>>): Promise<Record<string, string | null>> {
  const p = (await s.call('onboarding_propose')).structuredContent as any;
  assert.equal(p.outcome, 'proposed', JSON.stringify(p).slice(0, 500));
  return Object.fromEntries(p.operations.map((o: any) => [o.path, o.content]));
}

test('.roorules, CONVENTIONS.md and .claude/rules/**/*.md are found with their kind, at the root and nested', async (t) => {
  const { s } = await session(t, {
    '.roorules': '- Roo: prefer pure functions.\n',
    'pkg/.roorules': '- Roo: keep pkg free of runtime dependencies.\n',
    'CONVENTIONS.md': '- Aider: use dataclasses for records.\n',
    'pkg/sub/CONVENTIONS.md': '- Aider: sub modules export one class each.\n',
    '.claude/rules/api.md': '---\npaths: ["src/api/**/*.ts"]\n---\n- Claude: validate request bodies.\n',
    '.claude/rules/style/general.md': '- Claude: name things for what they do.\n',
    'pkg/.claude/rules/x.md': '---\npaths:\n  - "**/*.ts"\n---\n- Claude: pkg code is typed.\n',
    // Inside .claude/rules/ every Markdown file is a rule, whatever its name.
    '.claude/rules/CLAUDE.md': '- Claude: a rule file named like a memory file.\n',
    '.claude/rules/CONVENTIONS.md': '- Claude: a rule file named like Aider conventions.\n',
    '.claude/rules/AGENTS.md': '- Claude: a rule file named like AGENTS.md.\n',
    // .claude/CLAUDE.md stays a CLAUDE.md.
    '.claude/CLAUDE.md': '- Claude memory in the .claude folder.\n',
    'web/.claude/CLAUDE.md': '- Claude memory for web.\n',
    // Not instruction files: other names, other cases, other Claude folders.
    'docs/conventions.md': '- lower case is not Aider conventions.\n',
    'lib/Conventions.md': '- mixed case is not Aider conventions.\n',
    'CONVENTIONS.md.orig': '- a backup.\n',
    'CONVENTIONS.txt': '- not Markdown.\n',
    'MY-CONVENTIONS.md': '- another name.\n',
    '.roorules.bak': '- a backup.\n',
    roorules: '- no dot.\n',
    '.claude/rules/notes.txt': '- not Markdown.\n',
    '.claude/commands/deploy.md': '- a slash command, not a rule.\n',
    '.claude/agents/reviewer.md': '- a subagent, not a rule.\n',
    '.claude/settings.json': '{}\n',
    'rules/api.md': '- not under .claude.\n',
  });
  assert.deepEqual(await kindsOf(s), {
    '.claude/CLAUDE.md': 'claude-md',
    'web/.claude/CLAUDE.md': 'claude-md',
    '.claude/rules/AGENTS.md': 'claude-rules',
    '.claude/rules/CLAUDE.md': 'claude-rules',
    '.claude/rules/CONVENTIONS.md': 'claude-rules',
    '.claude/rules/api.md': 'claude-rules',
    '.claude/rules/style/general.md': 'claude-rules',
    'pkg/.claude/rules/x.md': 'claude-rules',
    'CONVENTIONS.md': 'conventions-md',
    'pkg/sub/CONVENTIONS.md': 'conventions-md',
    '.roorules': 'roorules',
    'pkg/.roorules': 'roorules',
  });
});

test('.claude/rules: paths (a YAML list, a string, a comma list strict YAML rejects) become applyTo; no paths goes repo-wide', async (t) => {
  const { s } = await session(t, {
    '.claude/rules/api.md': '---\ndescription: API rules\npaths: ["src/api/**/*.ts", "lib/**"]\n---\n- Validate every request body.\n',
    '.claude/rules/src.md': '---\npaths: src/**/*.ts\n---\n- Prefer named exports in sources.\n',
    '.claude/rules/tests.md': '---\npaths: **/*.test.ts, docs/**\n---\n- Name tests after the behaviour.\n',
    '.claude/rules/py.md': '---\npaths:\n  - **/*.py\n  - "scripts/*.py"\n---\n- Use type hints everywhere.\n',
    'pkg/.claude/rules/x.md': '---\npaths: ["**/*.ts"]\n---\n- Package sources are strictly typed.\n',
    'pkg/.claude/rules/style.md': '# Package style\n\n- Keep package modules small.\n',
    '.claude/rules/general.md': '---\ndescription: General rules\n---\n- Explain every shell command you run.\n',
    '.claude/rules/plain.md': '- Keep commits small and focused.\n',
  });
  const out = await proposed(s);
  assert.equal(
    out['.github/instructions/api.instructions.md'],
    '---\napplyTo: "src/api/**/*.ts,lib/**"\ndescription: "API rules"\n---\n\n- Validate every request body.\n',
  );
  assert.equal(out['.github/instructions/src.instructions.md'], '---\napplyTo: "src/**/*.ts"\n---\n\n- Prefer named exports in sources.\n');
  assert.equal(
    out['.github/instructions/tests.instructions.md'],
    '---\napplyTo: "**/*.test.ts,docs/**"\n---\n\n- Name tests after the behaviour.\n',
  );
  assert.equal(
    out['.github/instructions/py.instructions.md'],
    '---\napplyTo: "**/*.py,scripts/*.py"\n---\n\n- Use type hints everywhere.\n',
  );
  assert.equal(
    out['.github/instructions/pkg-x.instructions.md'],
    '---\napplyTo: "pkg/**/*.ts"\n---\n\n- Package sources are strictly typed.\n',
  );
  const pkgStyle = out['.github/instructions/pkg-style.instructions.md']!;
  assert.match(pkgStyle, /^---\napplyTo: "pkg\/\*\*"\n---\n/);
  assert.match(pkgStyle, /^- Keep package modules small\.$/m);
  const repoWide = out['.github/copilot-instructions.md']!;
  assert.match(repoWide, /^- Explain every shell command you run\.$/m);
  assert.match(repoWide, /^- Keep commits small and focused\.$/m);
  assert.deepEqual(Object.keys(out).sort(), [
    '.github/copilot-instructions.md',
    '.github/instructions/api.instructions.md',
    '.github/instructions/pkg-style.instructions.md',
    '.github/instructions/pkg-x.instructions.md',
    '.github/instructions/py.instructions.md',
    '.github/instructions/src.instructions.md',
    '.github/instructions/tests.instructions.md',
  ]);
});

test('a root .roorules and CONVENTIONS.md go repo-wide; nested ones get a file named after their folder with applyTo "<folder>/**"', async (t) => {
  const { s } = await session(t, {
    '.roorules': '- Prefer pure functions over classes.\n',
    'CONVENTIONS.md': '# Conventions\n\n- Use dataclasses for plain records.\n',
    'pkg/.roorules': '- Keep pkg free of runtime dependencies.\n',
    'tools/CONVENTIONS.md': '- Tools print errors to stderr.\n',
    'apps/web/CONVENTIONS.md': '- Web components are functions.\n',
  });
  const out = await proposed(s);
  const repoWide = out['.github/copilot-instructions.md']!;
  assert.match(repoWide, /^- Prefer pure functions over classes\.$/m);
  assert.match(repoWide, /^- Use dataclasses for plain records\.$/m);
  assert.equal(
    out['.github/instructions/pkg.instructions.md'],
    '---\napplyTo: "pkg/**"\n---\n\n- Keep pkg free of runtime dependencies.\n',
  );
  assert.equal(out['.github/instructions/tools.instructions.md'], '---\napplyTo: "tools/**"\n---\n\n- Tools print errors to stderr.\n');
  assert.equal(
    out['.github/instructions/apps-web.instructions.md'],
    '---\napplyTo: "apps/web/**"\n---\n\n- Web components are functions.\n',
  );
});

test('legacy notes: VS Code reads .claude/rules too, .roorules and CONVENTIONS.md only their own tools', async (t) => {
  const repo = sandbox(t, {
    '.roorules': '- Prefer pure functions over classes.\n',
    'CONVENTIONS.md': '- Use dataclasses for plain records.\n',
    '.claude/rules/api.md': '---\npaths: src/**\n---\n- Validate every request body.\n',
  });
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, analyze(scan));
  const note = (p: string) => plan.legacy.find((l) => l.path === p)!.note;
  assert.match(
    note('.claude/rules/api.md'),
    /read today by VS Code chat; the cloud agent, code review on GitHub.com and the Copilot CLI will see its rules only after the migration/,
  );
  assert.match(note('.roorules'), /kept for its own tool/);
  assert.match(note('CONVENTIONS.md'), /kept for its own tool/);
  for (const l of plan.legacy) assert.deepEqual(l.fates, ['keep', 'remove'], l.path);
});

/** Every source, with the body lines (front matter left out) that must be in Copilot's files. */
const SOURCES: Record<string, { text: string; body: string[] }> = {};
const add = (p: string, frontMatter: string, body: string) => {
  SOURCES[p] = { text: frontMatter + body, body: body.split('\n').filter((l) => l.trim() !== '') };
};
add('.roorules', '', '# Roo rules\n\n- Prefer pure functions over classes.\n- Log with the shared logger.\n');
add('pkg/.roorules', '', '- Keep pkg free of runtime dependencies.\n\nPackage code never reads the environment.\n');
add('CONVENTIONS.md', '', '# Coding conventions\n\n## Types\n\n- Use dataclasses for plain records.\n- Annotate every public function.\n');
add('tools/CONVENTIONS.md', '', '- Tools print errors to stderr.\n- Exit with 2 on bad usage.\n');
add(
  '.claude/rules/api.md',
  '---\ndescription: API rules\npaths: ["src/api/**/*.ts", "lib/**"]\n---\n',
  '- Validate every request body.\n- Return problem+json on errors.\n',
);
add('.claude/rules/tests.md', '---\npaths: **/*.test.ts\n---\n', '## Tests\n\n- Name tests after the behaviour.\n');
add('.claude/rules/general.md', '', '- Explain every shell command you run.\n');
add('pkg/.claude/rules/x.md', '---\npaths:\n  - "**/*.ts"\n---\n', '- Package sources are strictly typed.\n');
add('.claude/CLAUDE.md', '', '- Keep commits small and focused.\n');

function copilotLines(repo: string): Set<string> {
  const files = ['.github/copilot-instructions.md'];
  const dir = path.join(repo, '.github/instructions');
  if (fs.existsSync(dir)) files.push(...fs.readdirSync(dir).map((n) => `.github/instructions/${n}`));
  return new Set(
    files.filter((f) => fs.existsSync(path.join(repo, f))).flatMap((f) => fs.readFileSync(path.join(repo, f), 'utf8').split('\n')),
  );
}

test('migrate carries every body line of the new kinds into Copilot files, and rollback restores every file byte for byte', async (t) => {
  const { repo, s } = await session(t, Object.fromEntries(Object.entries(SOURCES).map(([p, x]) => [p, x.text])));
  const before = hashTree(repo);
  const kinds = await kindsOf(s);
  assert.equal(kinds['.roorules'], 'roorules');
  assert.equal(kinds['tools/CONVENTIONS.md'], 'conventions-md');
  assert.equal(kinds['pkg/.claude/rules/x.md'], 'claude-rules');
  assert.equal(kinds['.claude/CLAUDE.md'], 'claude-md');
  await proposed(s);
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', JSON.stringify(migrated.structuredContent));

  const landed = copilotLines(repo);
  for (const [p, { body }] of Object.entries(SOURCES)) {
    for (const line of body) {
      // A legacy title over rules becomes their `## ` section heading, and the file's headings move down with it.
      const found = landed.has(line) || (/^#+\s/.test(line) && [1, 2, 3].some((n) => landed.has(`${'#'.repeat(n)}${line}`)));
      assert.ok(found, `${p}: line lost in Copilot's files: ${JSON.stringify(line)}`);
    }
    assert.equal(fs.readFileSync(path.join(repo, p), 'utf8'), SOURCES[p]!.text, `${p} is kept as it was`);
  }
  const read = (p: string) => fs.readFileSync(path.join(repo, p), 'utf8');
  assert.match(read('.github/instructions/api.instructions.md'), /^applyTo: "src\/api\/\*\*\/\*\.ts,lib\/\*\*"$/m);
  assert.match(read('.github/instructions/tests.instructions.md'), /^applyTo: "\*\*\/\*\.test\.ts"$/m);
  assert.match(read('.github/instructions/pkg-x.instructions.md'), /^applyTo: "pkg\/\*\*\/\*\.ts"$/m);
  assert.match(read('.github/instructions/pkg.instructions.md'), /^applyTo: "pkg\/\*\*"$/m);
  assert.match(read('.github/instructions/tools.instructions.md'), /^applyTo: "tools\/\*\*"$/m);

  const again = (await s.call('onboarding_propose')).structuredContent as any;
  assert.deepEqual(
    again.operations.map((o: any) => `${o.op} ${o.path}`),
    [],
    'a migrated repository has nothing left to do',
  );

  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before, 'rollback restores every file byte for byte');
});
