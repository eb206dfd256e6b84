// analysis/scope/nested-scope.ts namesFolder on its own: whether a line names a nested file's folder,
// read as the case-blind pattern it stands for (one pattern per document cost more to compile than the reading).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFolder } from '../../server/src/analysis/scope/nested-scope.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The pattern the function stands for. */
const pattern = (folder: string): RegExp => {
  const names = [...new Set([folder, folder.slice(folder.lastIndexOf('/') + 1)])].map(escape).join('|');
  return new RegExp(String.raw`(?:^|[\s\`'"(\[])(?:\./)?(?:${names})/`, 'i');
};

const FOLDERS = ['docs', 'frontend/docs', 'packages/pkg-1', '.config/x.y', 'Σίσυφος/app', 'kit', 'straße', 'a+b/(c)'];
const LINES = [
  'See docs/ for more.',
  'See `docs/setup.md`.',
  'Read ./docs/x.md first',
  '(docs/x) and [docs/y]',
  '\'docs/\' and "DOCS/"',
  'docs/ at the start',
  './docs/ at the start',
  'dist/docs/ is built',
  '.docs/ is hidden',
  'the docs folder',
  'frontend/docs/ and FrontEnd/Docs/',
  'packages/pkg-1/src and pkg-1/',
  'pkg-10/ is another',
  '.config/x.y/z and ./.config/x.y/',
  'σίσυφος/app/ and ΣΊΣΥΦΟΣ/APP/ and σίσυφοσ/app/ and ςίσυφος/',
  'KIT/ and \u212Ait/ (a Kelvin sign)',
  'STRASSE/ and straße/ and STRAẞE/',
  'a+b/(c)/ and (c)/',
  '\u00a0docs/ after a no-break space, \u2028docs/ after a line separator',
  '\tdocs/',
  'no slash at all',
  '',
  '/',
  'docs',
  '././docs/',
];

test('namesFolder answers as the case-blind pattern of the folder and its last name, line by line', () => {
  for (const folder of FOLDERS) {
    const re = pattern(folder);
    const names = namesFolder(folder);
    for (const line of LINES) assert.equal(names(line), re.test(line), `${folder} in ${JSON.stringify(line)}`);
  }
});

test('namesFolder: a folder named at the start, after a delimiter or ./, never inside another path or word', () => {
  const docs = namesFolder('docs');
  assert.equal(docs('docs/x'), true);
  assert.equal(docs('see (./docs/x)'), true);
  assert.equal(docs('dist/docs/x'), false);
  assert.equal(docs('mydocs/x'), false);
  assert.equal(docs('docs'), false);
});
