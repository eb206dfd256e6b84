// call/words.ts conflictWords on its own: how a person reads a contradiction's sides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conflictWords } from '../../server/src/call/words.js';

test('conflictWords joins the sides with "or", a side that rules a value out included', () => {
  // Three sides (claims.ts sideSummary): two tools required, one ruled out.
  const said = '"npm" (.cursorrules:1) vs "pnpm" (AGENTS.md:3) vs not "pnpm" (CLAUDE.md:1)';
  assert.equal(
    conflictWords({ topic: 'package manager', said }),
    'the package manager: "npm" (.cursorrules:1) or "pnpm" (AGENTS.md:3) or not "pnpm" (CLAUDE.md:1)',
  );
  assert.equal(
    conflictWords({ topic: 'package manager', said: 'not "yarn" (a.md:1) vs "yarn" (b.md:2) vs "bun" (c.md:3)' }),
    'the package manager: not "yarn" (a.md:1) or "yarn" (b.md:2) or "bun" (c.md:3)',
  );
});

test('conflictWords keeps the "vs" of a reason and of words inside a quoted side', () => {
  // A reason is not a choice between sides, and a quote holds no double quote (its own are made single).
  const said =
    'always update vs never edit, same file CHANGELOG.md: "Always update CHANGELOG.md (x) vs \'y\'" (a.md:1) vs "Never edit CHANGELOG.md" (b.md:2)';
  assert.equal(
    conflictWords({ topic: 'CHANGELOG.md', said }),
    'CHANGELOG.md: always update vs never edit, same file CHANGELOG.md: "Always update CHANGELOG.md (x) vs \'y\'" (a.md:1) or "Never edit CHANGELOG.md" (b.md:2)',
  );
  assert.equal(
    conflictWords({ topic: 'the default branch', said: '"develop" (a.md:1) vs "master" (b.md:4)', mentions: [{ path: 'c.md', line: 2 }] }),
    'the default branch: "develop" (a.md:1) or "master" (b.md:4); also used, not a rule of its own (kept whatever you choose): c.md:2',
  );
});
