import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  newReaders,
  READS,
  readersOf,
  readersSentence,
  readFileOf,
  SURFACES,
  surfaceList,
} from '../../server/src/analysis/scope/surfaces.js';
import { legacyNote } from '../../server/src/planning/plan.js';
import { analysisReport } from '../../server/src/narrate/report.js';

test('the table: every surface reads copilot-instructions.md; only code review in VS Code skips .github/instructions/', () => {
  for (const s of SURFACES) assert.ok(READS[s].includes('copilot-instructions'), s);
  assert.deepEqual(readersOf('copilot-path-instructions', '.github/instructions/api.instructions.md'), [
    'vscode-chat',
    'cloud-agent',
    'review-github',
    'copilot-cli',
  ]);
});

test('AGENTS.md: the root one by VS Code chat, the cloud agent and the Copilot CLI; a nested one by the cloud agent only; never by code review', () => {
  assert.deepEqual(readersOf('agents-md', 'AGENTS.md'), ['vscode-chat', 'cloud-agent', 'copilot-cli']);
  assert.deepEqual(readersOf('agents-md', 'pkg/api/AGENTS.md'), ['cloud-agent']);
  assert.equal(readFileOf('agents-md', 'pkg/AGENTS.md'), 'nested-agents-md');
});

test('CLAUDE.md, GEMINI.md and .claude/rules: root files only, each by its own readers', () => {
  assert.deepEqual(readersOf('claude-md', 'CLAUDE.md'), ['vscode-chat', 'cloud-agent', 'copilot-cli']);
  assert.deepEqual(readersOf('claude-md', '.claude/CLAUDE.md'), ['vscode-chat']);
  assert.deepEqual(readersOf('claude-md', 'pkg/CLAUDE.md'), []);
  assert.deepEqual(readersOf('gemini-md', 'GEMINI.md'), ['cloud-agent', 'copilot-cli']);
  assert.deepEqual(readersOf('gemini-md', 'pkg/GEMINI.md'), []);
  assert.deepEqual(readersOf('claude-rules', '.claude/rules/api.md'), ['vscode-chat']);
});

test("no surface reads the other tools' files", () => {
  const others: [string, string][] = [
    ['cursor-rules', '.cursor/rules/api.mdc'],
    ['cursorrules', '.cursorrules'],
    ['windsurfrules', '.windsurfrules'],
    ['windsurf-rules', '.windsurf/rules/a.md'],
    ['clinerules', '.clinerules'],
    ['roorules', '.roorules'],
    ['conventions-md', 'CONVENTIONS.md'],
  ];
  for (const [kind, p] of others) assert.deepEqual(readersOf(kind, p), [], p);
});

test('who sees the rules only after the migration depends on the target', () => {
  assert.deepEqual(newReaders('agents-md', 'AGENTS.md', '.github/copilot-instructions.md'), ['review-github', 'review-vscode']);
  assert.deepEqual(newReaders('agents-md', 'AGENTS.md', '.github/instructions/api.instructions.md'), ['review-github']);
  assert.deepEqual(newReaders('cursor-rules', '.cursor/rules/api.mdc', '.github/instructions/api.instructions.md'), [
    'vscode-chat',
    'cloud-agent',
    'review-github',
    'copilot-cli',
  ]);
  assert.equal(surfaceList(['vscode-chat', 'cloud-agent', 'copilot-cli']), 'VS Code chat, the cloud agent and the Copilot CLI');
  assert.equal(surfaceList(['review-github']), 'code review on GitHub.com');
  assert.equal(
    readersSentence('agents-md', 'AGENTS.md', '.github/instructions/x.instructions.md'),
    'AGENTS.md is read today by VS Code chat, the cloud agent and the Copilot CLI; code review on GitHub.com will see its rules only after the migration (from .github/instructions/x.instructions.md).',
  );
});

test("the legacy choices' notes say who reads each file today and who only after the migration", () => {
  assert.equal(
    legacyNote({ kind: 'agents-md', path: 'AGENTS.md' }, '.github/copilot-instructions.md'),
    'AGENTS.md is read today by VS Code chat, the cloud agent and the Copilot CLI; code review on GitHub.com and code review in VS Code will see its rules only after the migration, from .github/copilot-instructions.md. If you keep it, its rules load twice there (from it and from .github/copilot-instructions.md).',
  );
  assert.equal(
    legacyNote({ kind: 'cursor-rules', path: '.cursor/rules/api.mdc' }, '.github/instructions/api.instructions.md'),
    '.cursor/rules/api.mdc is kept for its own tool: no Copilot surface reads it today; VS Code chat, the cloud agent, code review on GitHub.com and the Copilot CLI will see its rules only after the migration, from .github/instructions/api.instructions.md.',
  );
});

test('the analyze report says, per file, which surfaces read it today', () => {
  const text = analysisReport({
    pattern: 'messy',
    sources: [
      { path: 'AGENTS.md', kind: 'agents-md', bytes: 10 },
      { path: '.cursorrules', kind: 'cursorrules', bytes: 10 },
      { path: '.github/copilot-instructions.md', kind: 'copilot-instructions', bytes: 10 },
    ] as any,
    problems: [],
    skipped: [],
  });
  assert.match(
    text,
    /^- AGENTS\.md \(agents-md, 10 bytes\): read today by VS Code chat, the cloud agent and the Copilot CLI; code review on GitHub\.com will see its rules only after the migration\.$/m,
  );
  assert.match(
    text,
    /^- \.cursorrules \(cursorrules, 10 bytes\): no Copilot surface reads it today; VS Code chat, the cloud agent, code review on GitHub\.com and the Copilot CLI will see its rules only after the migration\.$/m,
  );
  assert.match(
    text,
    /^- \.github\/copilot-instructions\.md \(copilot-instructions, 10 bytes\): read today by VS Code chat, the cloud agent, code review on GitHub\.com, code review in VS Code and the Copilot CLI\.$/m,
  );
});

test('the analyze report words each file as its own kind and place give, whatever files came before it', () => {
  const kinds = [
    'agents-md',
    'claude-md',
    'gemini-md',
    'claude-rules',
    'cursor-rules',
    'copilot-instructions',
    'copilot-path-instructions',
  ];
  const paths = ['AGENTS.md', 'pkg/AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md', 'pkg/CLAUDE.md', 'GEMINI.md', 'pkg/GEMINI.md'];
  const more = ['.claude/rules/a.md', '.claude/rules/a.txt', '.cursor/rules/a.mdc', '.github/copilot-instructions.md'];
  const sources = kinds.flatMap((kind) => [...paths, ...more].map((path) => ({ path, kind, bytes: 1 })));
  // Each line as the table gives it for that file alone, computed here the long way.
  const expected = (kind: string, path: string) => {
    const now = readersOf(kind, path);
    const today = now.length === 0 ? 'no Copilot surface reads it today' : `read today by ${surfaceList(now)}`;
    if (kind === 'copilot-instructions' || kind === 'copilot-path-instructions') return `${today}.`;
    const later = newReaders(kind, path, '.github/instructions/x.instructions.md');
    return later.length === 0 ? `${today}.` : `${today}; ${surfaceList(later)} will see its rules only after the migration.`;
  };
  for (const order of [sources, [...sources].reverse()]) {
    const lines = analysisReport({ pattern: 'messy', sources: order as any, problems: [], skipped: [] })
      .split('\n')
      .filter((l) => l.startsWith('- '));
    assert.deepEqual(
      lines,
      order.map((s) => `- ${s.path} (${s.kind}, 1 bytes): ${expected(s.kind, s.path)}`),
    );
  }
});
