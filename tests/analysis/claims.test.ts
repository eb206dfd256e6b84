// analysis/contradictions/claims.ts on its own: what a rule line is read as claiming (the contradiction finder
// compares these claims; its own tests are in detection.test.ts and claim-relations.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractClaims, mayNameClaim, proseLines, sectionTitle } from '../../server/src/analysis/contradictions/claims.js';
import { isWeak, type Claim } from '../../server/src/analysis/contradictions/claim.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';
import type { Unit } from '../../server/src/model/model.js';

const unit = (kind: Unit['kind'], lines: string[], extra: Partial<Unit> = {}): Unit => ({
  kind,
  path: 'AGENTS.md',
  line: 1,
  lines,
  blankBefore: false,
  ...extra,
});
const read = (c: Claim) => `${c.line} ${c.kind} ${c.topic}=${c.value}${c.positive ? '' : ' (not)'}${isWeak(c) ? ' (weak)' : ''}`;

test('extractClaims reads an option, an action, a modal rule and a version from rule lines, each with its line, unit and section', () => {
  const units = splitUnits('AGENTS.md', [
    '# Setup',
    '',
    '- Use pnpm to install dependencies.',
    '- Always run the linter before committing.',
    '- Node.js 20 or later.',
  ]);
  const claims = extractClaims(units);
  assert.deepEqual(claims.map(read), [
    '3 option package-manager=pnpm',
    '4 action act:use:linter=linter',
    '4 modal rule:run linter before committing=run linter before committing',
    '5 version version:Node.js=20+',
  ]);
  assert.deepEqual(
    claims.map((c) => [c.unit, c.section, c.path]),
    claims.map((c) => [`AGENTS.md:${c.line}`, 'setup', 'AGENTS.md']),
  );
  const action = claims[1]!;
  assert.ok(action.kind === 'action');
  assert.equal(action.polarity, 'must');
  assert.equal(action.verb, 'run');
});

test('extractClaims: each kind of claim carries the fields of its kind and none of another', () => {
  const units = splitUnits('AGENTS.md', [
    '# Setup',
    '',
    '- Use pnpm.',
    '- Run `pnpm test` before every commit.',
    '- Never edit CHANGELOG.md.',
    '- Always run the linter before committing.',
    '- Node.js 20 or later.',
    '- **Build**: `pnpm build` (must).',
    '- Default branch: `main`',
    '',
    '```sh',
    'npm install',
    'npm run build',
    '```',
  ]);
  const place = ['topic', 'topicTitle', 'value', 'positive', 'path', 'line', 'unit', 'text', 'scope', 'langs', 'section', 'label'];
  const own: Record<Claim['kind'], { always: string[]; maybe: string[] }> = {
    option: { always: [], maybe: ['weak', 'mention'] },
    version: { always: [], maybe: ['weak'] },
    modal: { always: [], maybe: [] },
    action: { always: ['polarity', 'verb', 'qualifier', 'excepted', 'objectKind'], maybe: ['weak'] },
    role: { always: ['commands', 'strict'], maybe: [] },
    fact: { always: [], maybe: [] },
  };
  const claims = extractClaims(units);
  assert.deepEqual([...new Set(claims.map((c) => c.kind))].sort(), Object.keys(own).sort());
  for (const c of claims) {
    const keys = Object.keys(c).filter((k) => k !== 'kind');
    const { always, maybe } = own[c.kind];
    for (const k of [...place, ...always]) assert.ok(keys.includes(k), `${c.kind} ${c.topic} has ${k}`);
    for (const k of keys) assert.ok([...place, ...always, ...maybe].includes(k), `${c.kind} ${c.topic} has no ${k}`);
  }
  assert.ok(
    claims.some((c) => c.kind === 'option' && c.mention === true),
    'a command in prose only mentions its tool',
  );
  assert.ok(
    claims.some((c) => c.kind === 'option' && c.weak === true) && claims.some((c) => c.kind === 'action' && c.weak === true),
    'a shell block uses a tool and runs a command (weak)',
  );
});

test('extractClaims: a "never" is a negative claim, and a shell block uses a tool without choosing it (weak)', () => {
  const units = splitUnits('AGENTS.md', ['```sh', 'npm install', '```', '', '- Never use `npm`.']);
  assert.deepEqual(extractClaims(units).map(read), [
    '2 option package-manager=npm (weak)',
    '2 action act:use:npm install=npm install (weak)',
    '5 option package-manager=npm (not)',
    '5 modal rule:use npm=use npm (not)',
  ]);
});

test('extractClaims gives each claim the scope of its unit, and reads nothing from headings or front matter', () => {
  const units = splitUnits('AGENTS.md', ['---', 'description: Use pnpm', '---', '# Use pnpm', '', '- Use yarn.']);
  const scope = { kind: 'globs' as const, globs: ['web/**'] };
  const claims = extractClaims(units, () => scope);
  assert.deepEqual(claims.map(read), ['6 option package-manager=yarn']);
  assert.deepEqual(claims[0]!.scope, scope);
  assert.equal(claims[0]!.section, 'use pnpm');
});

test('mayNameClaim: a line naming an option, a version or a range may claim; a line naming none is read no further', () => {
  assert.equal(mayNameClaim('Use pnpm.'), true);
  assert.equal(mayNameClaim('Python >= 3.11'), true);
  assert.equal(mayNameClaim('Always squash commits.'), true);
  assert.equal(mayNameClaim('Keep functions small.'), false);
});

test('proseLines leaves out the lines of a code block nested in a unit, fences included', () => {
  assert.deepEqual(proseLines(unit('list-item', ['- Example:', '  ```sh', '  make', '  ```', '  after'])), [0, 4]);
  assert.deepEqual(proseLines(unit('paragraph', ['One line.'])), [0]);
  assert.deepEqual(proseLines(unit('code', ['```'])), []);
  // A closing fence must be as long as the opening one, of the same character.
  assert.deepEqual(proseLines(unit('list-item', ['- x', '  ````', '  ```', '  ~~~~', '  ````', '  y'])), [0, 5]);
});

test("sectionTitle is a heading's words without the #s, trimmed and lower-cased", () => {
  assert.equal(sectionTitle(unit('heading', ['## Unit Tests  '], { level: 2 })), 'unit tests');
  assert.equal(sectionTitle(unit('heading', ['   ### Build & Release'], { level: 3 })), 'build & release');
});
