import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { flatFields, needsYaml, readFrontMatter } from '../../server/src/model/frontmatter.js';
import { splitText } from '../../server/src/common/text.js';
import { CORPUS } from '../helpers/corpus.js';

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
  if (!fs.existsSync(CORPUS)) {
    if (process.env.COPILOT_ONBOARD_REQUIRE_CORPUS === '1') assert.fail(`the corpus is required here but ${CORPUS} is absent`);
    t.skip(`${CORPUS} is absent`);
    return;
  }
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

/** What readFrontMatter does with a text's lines: whether it takes the YAML parser (the flat reader cannot read the block). */
function takesYaml(text: string): boolean {
  const { lines } = splitText(text);
  const fm = readFrontMatter(lines);
  return fm !== null && flatFields(lines.slice(1, fm.lineCount - 1)) === null;
}

test('needsYaml tells from the text alone whether readFrontMatter takes the YAML parser', () => {
  const texts = [
    '',
    '---',
    '---\n',
    '---\nglobs:\n  - "*.ts"\n',
    '---\nglobs:\n  - "*.ts"\n---\n# Body',
    '---\nglobs:\n  - "*.ts"\n...\n',
    '---\ndescription: flat\n---\n- item: [1, 2]\n',
    '  ---  \ncount: 3\n  ---\n',
    '\uFEFF---\ncount: 3\n---\n',
    '\uFEFF---\ndescription: flat\n---\n',
    '---\r\ncount: 3\r\n---\r\n',
    '---\r\ndescription: flat\r\n---\r\n',
    '---\rcount: 3\r---\r',
    '---\ncount: 3\r\n---\n',
    'text\n---\ncount: 3\n---\n',
    '---\n\ncount: 3\n---',
  ];
  for (const text of texts) assert.equal(needsYaml(text), takesYaml(text), JSON.stringify(text));
  assert.ok(needsYaml('---\nglobs:\n  - "*.ts"\n---\n'));
  assert.ok(!needsYaml('---\ndescription: flat\n---\n'));
});

test('fuzz: needsYaml agrees with readFrontMatter', () => {
  const textLine = fc.oneof(line, fc.constantFrom('---', ' --- ', '...', '- item', '  - "*.ts"', '', '# Title'));
  fc.assert(
    fc.property(fc.array(textLine, { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean(), (lines, eol, bom) => {
      const text = (bom ? '\uFEFF' : '') + lines.join(eol);
      assert.equal(needsYaml(text), takesYaml(text));
    }),
    { numRuns: 3000 },
  );
});

test('the corpus: needsYaml agrees with readFrontMatter on every file', (t) => {
  if (!fs.existsSync(CORPUS)) {
    t.skip(`${CORPUS} is absent`);
    return;
  }
  let yaml = 0;
  for (const file of markdownFiles(CORPUS)) {
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(needsYaml(text), takesYaml(text), file);
    if (needsYaml(text)) yaml++;
  }
  t.diagnostic(`${yaml} files of the corpus need the YAML parser`);
  assert.ok(yaml > 0);
});
