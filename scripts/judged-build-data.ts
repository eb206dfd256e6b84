// The judged pairs a mechanism may be built and fitted on (issue 39): the build half of split.json and
// every set judged later but the newest, which stays held out (quality-real.ts measures it, nobody reads
// it while building). The check half is never read either. Shared by quality-stages.ts and fit-second-look-rank.ts.
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS } from '../tests/helpers/corpus.js';

export interface Side {
  path: string;
  text: string;
  line?: number;
  also?: string[];
}
export interface Pair {
  id: string;
  repo: string;
  label: 'conflict' | 'compatible';
  class: string;
  a: Side;
  b: Side;
  /** Why the judge gave the label. */
  why: string;
}
export interface JudgedSet {
  name: string;
  root: string;
  pairs: Pair[];
}

const fixtures = path.join(import.meta.dirname, '../tests/fixtures/judged-real');
const read = <T>(f: string) => JSON.parse(fs.readFileSync(path.join(fixtures, f), 'utf8')) as T;

/** Where a set's repositories are: the corpus for the first two sets judged later, else the folder quality-real.ts reads it from. */
function rootOf(file: string): string {
  return heldoutRoot(/^unseen-\d{4}-\d{2}-\d{2}([a-z]*)\.json$/.exec(file)?.[1] ?? '') ?? CORPUS;
}

/** The folder outside the project a set judged later lives in (`$HELDOUT_ROOT` for c, `$HELDOUT_X_ROOT` after), or null for the corpus's sets. */
export function heldoutRoot(letter: string): string | null {
  if (letter === '' || letter === 'b') return null;
  const env = letter === 'c' ? 'HELDOUT_ROOT' : `HELDOUT_${letter.toUpperCase()}_ROOT`;
  return process.env[env] ?? `/work/heldout-${letter}`;
}

export function buildDataSets(): JudgedSet[] {
  const later = fs
    .readdirSync(fixtures)
    .filter((f) => /^unseen-.*\.json$/.test(f))
    .sort();
  const buildHalf = new Set(read<{ build: string[] }>('split.json').build);
  return [
    { name: 'build half', root: CORPUS, pairs: read<{ pairs: Pair[] }>('pairs.json').pairs.filter((p) => buildHalf.has(p.repo)) },
    // The newest set is the held-out one: left out.
    ...later.slice(0, -1).map((f) => ({ name: f.replace(/\.json$/, ''), root: rootOf(f), pairs: read<{ pairs: Pair[] }>(f).pairs })),
  ];
}

/** The lines a side stands for (`path:line`), found by its quotes as quality-real.ts finds them. */
export function keysOf(dir: string, s: Side): Set<string> {
  const lines = fs.readFileSync(path.join(dir, s.path), 'utf8').split(/\r?\n/);
  return new Set(
    [s.text, ...(s.also ?? [])].map(
      (q, i) => `${s.path}:${i === 0 && s.line !== undefined ? s.line : lines.findIndex((l) => l.includes(q)) + 1}`,
    ),
  );
}
