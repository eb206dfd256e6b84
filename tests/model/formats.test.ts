// The one format registry (model/formats.ts): its facts and the format modules agree, so that a
// format is added in its row and its own module, and every other place asks the registry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { FORMATS, formatFor } from '../../server/src/analysis/formats/registry.js';
import { readersOf, READS, SURFACES } from '../../server/src/analysis/scope/surfaces.js';
import { IMPORTING_KINDS } from '../../server/src/analysis/discovery/imports.js';
import { POINTER_KINDS } from '../../server/src/planning/options.js';
import { FORMAT_IDS, FORMATS_FACTS, formatFacts, type FormatId } from '../../server/src/model/formats.js';
import { FormatIdSchema } from '../../server/src/model/source.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Equal<A, B>) => assert.equal(ok, true);

test('the zod enum of format ids is the registry, in its order, and every id has its module in that order', () => {
  same<z.infer<typeof FormatIdSchema>, FormatId>(true);
  assert.deepEqual(FormatIdSchema.options, [...FORMAT_IDS]);
  assert.deepEqual(
    FORMATS.map((f) => f.id),
    [...FORMAT_IDS],
  );
  for (const f of FORMATS) assert.equal(f.title, FORMATS_FACTS[f.id].title, f.id);
});

/** A path each of the registry's globs names: `**\/` dropped (and kept as a folder), `*` as a name. */
const examples = (glob: string): string[] => {
  const plain = glob.replace(/\*\*\//g, '').replace(/\*/g, 'x');
  return glob.startsWith('**/') ? [plain, `pkg/api/${plain}`] : [plain];
};

test('every path the registry names for a format is detected as that format, and only as it', () => {
  for (const id of FORMAT_IDS) {
    for (const glob of FORMATS_FACTS[id].paths) {
      for (const p of examples(glob)) assert.equal(formatFor(p)?.id, id, `${glob}: ${p}`);
    }
  }
});

test('a file of a format reads its front matter exactly when the registry says it has some', () => {
  const text = '---\ndescription: d\n---\n# Rules\n\n- Use tabs.\n';
  for (const id of FORMAT_IDS) {
    const rel = examples(FORMATS_FACTS[id].paths[0]!)[0]!;
    const doc = formatFor(rel)!.parse({ path: rel, text, linkTarget: null } as never);
    assert.equal(doc.kind, id);
    assert.equal(doc.role, FORMATS_FACTS[id].role, id);
    const hasFrontMatter = FORMATS_FACTS[id].frontMatter !== null;
    assert.deepEqual(doc.frontMatterKeys, hasFrontMatter ? ['description'] : [], id);
    assert.equal(doc.units[0]!.lines[0], hasFrontMatter ? '# Rules' : '---', id);
  }
});

test("who reads what, the importing kinds and the pointer kinds come from the registry's rows", () => {
  for (const id of FORMAT_IDS) {
    for (const r of FORMATS_FACTS[id].readBy) {
      if (r.at.path !== undefined) assert.deepEqual(readersOf(id, r.at.path), [...r.surfaces], `${id} ${r.at.path}`);
      for (const s of SURFACES) assert.equal(READS[s].includes(r.row), r.surfaces.includes(s), `${r.row} ${s}`);
    }
  }
  assert.deepEqual([...IMPORTING_KINDS].sort(), ['claude-md', 'claude-rules', 'gemini-md', 'imported']);
  assert.deepEqual([...POINTER_KINDS].sort(), ['claude-md', 'gemini-md']);
  assert.equal(formatFacts('imported'), undefined);
  assert.equal(formatFacts('toString'), undefined);
});
