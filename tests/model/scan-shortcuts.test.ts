import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { flatLine, globList } from '../../server/src/model/frontmatter.js';
import { inSkippedDir, SKIPPED_DIRS } from '../../server/src/analysis/discovery/discover.js';
import { FORMATS, formatFor } from '../../server/src/analysis/formats/registry.js';

/** The line pattern the flat reader matched each line with, before it read lines by hand. */
const FLAT_LINE = /^([A-Za-z_][\w-]*):(?:[ ]+(.*?))?[ ]*$/;

test('a flat line is read by hand as the line pattern reads it', () => {
  const piece = fc.constantFrom('a', 'Key', '_k', 'x-y', '1', ':', ' ', '  ', '\t', 'v', '"q"', '#', '-', '.', 'é', '\u00a0');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const line = pieces.join('');
      const m = FLAT_LINE.exec(line);
      assert.deepEqual(flatLine(line), m ? { key: m[1], text: m[2] ?? '' } : null, JSON.stringify(line));
    }),
    { numRuns: 20000 },
  );
  assert.deepEqual(flatLine('c:  x y  '), { key: 'c', text: 'x y' });
  assert.equal(flatLine('a:x'), null);
  assert.equal(flatLine('a :x'), null);
});

test('a path is in a skipped folder when a folder on the way (not its file name) is one', () => {
  const reference = (rel: string) =>
    rel
      .split('/')
      .slice(0, -1)
      .some((seg) => SKIPPED_DIRS.has(seg));
  const seg = fc.constantFrom(...SKIPPED_DIRS, 'a', 'git', 'x.venv', 'venvs', '', '.', 'node_modules2');
  fc.assert(
    fc.property(fc.array(seg, { minLength: 1, maxLength: 5 }), (segs) => {
      const rel = segs.join('/');
      assert.equal(inSkippedDir(rel), reference(rel), JSON.stringify(rel));
    }),
    { numRuns: 20000 },
  );
});

test('a globs list splits at the commas outside braces, with or without braces', () => {
  // The brace-aware split, kept here as it splits every list (the reader splits a list without braces at once).
  const reference = (text: string): string[] => {
    const parts: string[] = [];
    let depth = 0;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '{') depth++;
      else if (c === '}' && depth > 0) depth--;
      else if (c === ',' && depth === 0) {
        parts.push(text.slice(start, i));
        start = i + 1;
      }
    }
    parts.push(text.slice(start));
    return parts.map((g) => g.trim().replace(/^(['"])(.*)\1$/, '$2')).filter((g) => g !== '');
  };
  const piece = fc.constantFrom('a', '*.ts', ',', ', ', '{', '}', '"', "'", ' ', '**/');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const text = pieces.join('');
      assert.deepEqual(globList(text), reference(text), JSON.stringify(text));
    }),
    { numRuns: 20000 },
  );
});

test("formatFor's shortcuts (an ending no format takes, a `.mdc` name) find what trying every format in order finds", () => {
  // Every format tried in order, as formatFor did before its first look at the path's ending.
  const reference = (rel: string) => FORMATS.find((f) => f.detect(rel));
  const seg = fc.constantFrom(
    'a',
    'src',
    '.github',
    'instructions',
    '.cursor',
    '.claude',
    '.windsurf',
    '.clinerules',
    'rules',
    'workflows',
    'rules.mdc',
    'node_modules',
    '',
  );
  const name = fc.constantFrom(
    'AGENTS.md',
    'CLAUDE.md',
    'GEMINI.md',
    'CONVENTIONS.md',
    'copilot-instructions.md',
    'x.instructions.md',
    'a.mdc',
    'AGENTS.mdc',
    '.cursorrules.mdc',
    'a.MD',
    'README.md',
    'notes.txt',
    'NOTES.TXT',
    'a.Mdc',
    '.cursorrules',
    '.windsurfrules',
    '.clinerules',
    '.roorules',
    '.Roorules',
    'rules',
    'a.json',
    'a.md.bak',
    'mdc',
    'a.ts',
  );
  fc.assert(
    fc.property(fc.array(seg, { maxLength: 4 }), name, (segs, file) => {
      const rel = [...segs, file].join('/');
      assert.equal(formatFor(rel), reference(rel), JSON.stringify(rel));
    }),
    { numRuns: 20000 },
  );
  assert.equal(formatFor('.cursor/rules/a.mdc')?.id, 'cursor-rules');
  assert.equal(formatFor('.github/copilot-instructions.md')?.id, 'copilot-instructions');
  assert.equal(formatFor('src/index.ts'), undefined);
  assert.equal(formatFor('docs/a.mdc'), undefined);
});
