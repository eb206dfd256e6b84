import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { flatFields, needsYaml, readFrontMatter } from '../../server/src/model/frontmatter.js';
import { CORPUS, requireCorpus } from '../helpers/corpus.js';

/** What the YAML parser makes of a block, as readFrontMatter asks it. */
const yamlOf = (body: string[]): unknown => parseYaml(body.join('\n'), { strict: false, uniqueKeys: false, logLevel: 'error' }) ?? {};

test('the flat reader takes the common front matter, and reads it as YAML does', () => {
  const blocks = [
    ['description: Conventions for area 1', 'globs: src/area-1/**/*.ts, test/area-1/**', 'alwaysApply: false'],
    ['description: "Quoted, with: a colon"', "applyTo: '**/*.py'", 'excludeAgent: code-review'],
    ['globs:', 'alwaysApply: TRUE', 'name: a#b', 'x_y-z: trailing spaces   '],
    ['description: Héllo wörld — ünïcode', '', 'paths: src/{a,b}/*.ts'],
    [],
  ];
  for (const body of blocks) {
    const flat = flatFields(body);
    assert.notEqual(flat, null, JSON.stringify(body));
    assert.deepEqual(flat, yamlOf(body), JSON.stringify(body));
  }
  assert.deepEqual(readFrontMatter(['---', ...blocks[0]!, '---', '# Body'])?.data, {
    description: 'Conventions for area 1',
    globs: 'src/area-1/**/*.ts, test/area-1/**',
    alwaysApply: false,
  });
});

test('the flat reader leaves everything else to the YAML parser', () => {
  const others = [
    ['globs:', '  - "**/*.ts"'],
    ['version: 1.2'],
    ['count: 3'],
    ['name: ~'],
    ['name: null'],
    ['globs: **/*.ts'],
    ['description: a # comment'],
    ['description: a: b'],
    ['# a comment'],
    ['description: "escaped \\" quote"'],
    ["description: 'it''s'"],
    ['a: 1', 'a: 2'],
    ['a: x', 'a: y'],
    ['a:\tb'],
    ['  indented: x'],
    ['key:value'],
    ['true: x'],
    ['__proto__: x'],
    ['a: [1, 2]'],
    ['a: {b: c}'],
    ['a: |', '  text'],
    ['a: -x'],
    ['a: x\r'],
    ['a: x\u2028y'],
  ];
  for (const body of others) {
    assert.equal(flatFields(body), null, JSON.stringify(body));
    // And readFrontMatter still gives what it gave before the flat reader: YAML's answer, or the lenient reader's.
    const fm = readFrontMatter(['---', ...body, '---']);
    assert.ok(fm);
    if (!fm.lenient) assert.deepEqual(fm.data, yamlOf(body));
  }
});

const key = fc.constantFrom('description', 'globs', 'alwaysApply', 'applyTo', 'name', 'a-b', 'x_1', 'true', 'null', '__proto__', 'Key');
const piece = fc.constantFrom(
  'text',
  ' ',
  '  ',
  ':',
  ': ',
  '#',
  ' #',
  '*',
  '**/*.ts',
  ',',
  '"',
  "'",
  '\\',
  '-',
  '?',
  '.',
  '0',
  '1.5',
  'true',
  'false',
  'TRUE',
  'null',
  'Null',
  '~',
  '[',
  ']',
  '{',
  '}',
  '&a',
  '!tag',
  '|',
  '>',
  '%',
  '@',
  '`',
  '\t',
  '\r',
  '\u2028',
  '\ufeff',
  'é',
  '0x1f',
  '.inf',
  '+1',
  'yes',
);
const line = fc.oneof(
  fc
    .tuple(key, fc.constantFrom(':', ': ', ':  ', ' : '), fc.array(piece, { maxLength: 5 }))
    .map(([k, sep, v]) => `${k}${sep}${v.join('')}`),
  fc.array(piece, { maxLength: 4 }).map((v) => v.join('')),
);

test('readFrontMatter after needsYaml (what needsYaml read is taken over) gives what it gives alone, for those lines and no others', () => {
  const files = [
    ['---', 'description: Area a', 'globs: src/a/**', 'alwaysApply: false', '---', '- Use pnpm.'],
    ['---', 'globs:', '  - "src/b/**/*.ts"', '---', '- Use yarn.'],
    ['- No front matter.'],
    ['---', 'description: never closed'],
    ['---', '---', 'body'],
  ];
  const alone = files.map((lines) => readFrontMatter([...lines]));
  for (const [i, lines] of files.entries()) {
    needsYaml(lines);
    assert.deepEqual(readFrontMatter(lines), alone[i], `after needsYaml: ${lines.join('|')}`);
    // What needsYaml read of one file's lines is never taken for another's, nor twice.
    needsYaml(lines);
    const other = files[(i + 1) % files.length]!;
    assert.deepEqual(readFrontMatter(other), alone[(i + 1) % files.length]);
    assert.deepEqual(readFrontMatter(lines), alone[i]);
  }
});

test('fuzz: whenever the flat reader answers, YAML gives the same answer', (t) => {
  let answered = 0;
  fc.assert(
    fc.property(fc.array(line, { maxLength: 6 }), (body) => {
      const flat = flatFields(body);
      if (flat === null) return;
      answered++;
      assert.deepEqual(flat, yamlOf(body));
    }),
    { numRuns: 5000 },
  );
  t.diagnostic(`the flat reader answered ${answered} of 5000 blocks`);
  assert.ok(answered > 250);
});

test('every front matter block of the corpus that the flat reader takes, it reads as YAML does', (t) => {
  if (!requireCorpus(t)) return;
  let taken = 0;
  let blocks = 0;
  for (const file of markdownFiles(CORPUS)) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    if (lines[0]?.trim() !== '---') continue;
    const close = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
    if (close < 0) continue;
    const body = lines.slice(1, close);
    blocks++;
    const flat = flatFields(body);
    if (flat === null) continue;
    taken++;
    assert.deepEqual(flat, yamlOf(body), file);
  }
  t.diagnostic(`${taken} of ${blocks} front matter blocks read without the YAML parser`);
  assert.ok(taken > 0);
});

function* markdownFiles(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* markdownFiles(p);
    else if (e.isFile() && /\.(md|mdc)$/.test(e.name)) yield p;
  }
}
