import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileNames } from '../../server/src/show/file-names.js';
import { annotated, type SupersededFile } from '../../server/src/steps/superseded.js';

test('a sentence names up to five paths, and counts more with the first three named', () => {
  assert.equal(fileNames([]), '');
  assert.equal(fileNames(['AGENTS.md']), 'AGENTS.md');
  assert.equal(fileNames(['a.md', 'b.md', 'c.md', 'd.md', 'e.md']), 'a.md, b.md, c.md, d.md, e.md');
  assert.equal(fileNames(['a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'f.md']), '6 files (a.md, b.md, c.md and 3 more)');
  const many = Array.from({ length: 500 }, (_, i) => `.cursor/rules/area-${i}.mdc`);
  assert.equal(fileNames(many), '500 files (.cursor/rules/area-0.mdc, .cursor/rules/area-1.mdc, .cursor/rules/area-2.mdc and 497 more)');
});

test('the pattern after a migration that kept many legacy files counts them', () => {
  const kept = (n: number): SupersededFile[] =>
    Array.from({ length: n }, (_, i) => ({
      path: `pkg${i}/AGENTS.md`,
      by: ['.github/copilot-instructions.md'],
      rules: 2,
      copies: 0,
      fates: ['remove'],
    }));
  const said = (n: number) => annotated({ problems: [], patternDetail: 'as analysed' }, kept(n), n).patternDetail;
  assert.equal(said(1), "the rules of pkg0/AGENTS.md are in Copilot's files already; that file is kept as you chose");
  assert.equal(
    said(8),
    "the rules of 8 files (pkg0/AGENTS.md, pkg1/AGENTS.md, pkg2/AGENTS.md and 5 more) are in Copilot's files already; those files are kept as you chose",
  );
});
