import { test } from 'node:test';
import assert from 'node:assert/strict';
import { otherAssistantIn, otherAssistantLines } from '../../server/src/analysis/discovery/other-assistants.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';
import { plannedTwice } from '../helpers/sandbox.js';

/** Lines written for another assistant are found by what they name, and listed in the plan; nothing is rewritten. */

test('a line addressed to another assistant, its link scheme, its tools and a section for it are found', () => {
  assert.equal(
    otherAssistantIn('This file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.'),
    'names Claude Code',
  );
  assert.equal(otherAssistantIn('Codex cannot run the test suite, so say which tests to run.'), 'names Codex');
  assert.equal(otherAssistantIn('See [repo.md](mdc:ai/references/repo.md) for the layout.'), 'an mdc: link, which only Cursor resolves');
  assert.equal(otherAssistantIn('Prefer `apply_diff` over `write_to_file` for small edits.'), "names apply_diff, another assistant's tool");
  assert.equal(otherAssistantIn('## Claude-specific'), 'a section for Claude');
  assert.equal(otherAssistantIn('### Notes for Codex'), 'a section for Codex');
});

test('lines about a product of that name, a database cursor or code are not for another assistant', () => {
  assert.equal(otherAssistantIn('Tool permission handlers control what actions Claude can take.'), null);
  assert.equal(otherAssistantIn('Close the cursor after every query.'), null);
  assert.equal(otherAssistantIn('## Claude API integration'), null);
  assert.equal(otherAssistantIn('Use GitHub Copilot for reviews.'), null);
  const lines = '# Guide\n\n```md\nThis file provides guidance to Claude Code.\n```\n\n- Codex should run `pnpm test` first.\n'.split('\n');
  assert.deepEqual(
    otherAssistantLines({ units: splitUnits('AGENTS.md', lines) }).map((l) => l.line),
    [7],
    'a line inside code is an example, not a rule',
  );
});

test("the plan lists each file's lines for another assistant in one note, and writes them as they are", async (t) => {
  const { first, read } = await plannedTwice(t, {
    'CLAUDE.md':
      '# CLAUDE.md\n\nThis file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.\n\n- Run `pnpm test` before committing.\n',
    '.cursor/rules/repo.mdc':
      '---\ndescription: the monorepo layout\nalwaysApply: true\n---\nThe layout is in [repo.md](mdc:docs/repo.md).\n',
  });
  const notes = first.notes.filter((n) => n.includes('written for or about another assistant'));
  assert.equal(notes.length, 2);
  assert.ok(
    notes[0]!.startsWith(
      'CLAUDE.md: one line is written for or about another assistant, or no rule at all, and Copilot would read it as its own: line 3 "This file provides guidance to Claude Code',
    ),
  );
  assert.ok(notes[0]!.includes('(names Claude Code)'));
  assert.ok(
    notes[0]!.endsWith("It is migrated as written; approve's first round can rewrite it for Copilot or leave it out instead."),
    notes[0],
  );
  assert.ok(notes[1]!.startsWith('.cursor/rules/repo.mdc: one line is written for or about another assistant'));
  const out = read('.github/copilot-instructions.md');
  assert.match(out, /^This file provides guidance to Claude Code \(claude\.ai\/code\)/m, 'nothing is rewritten without a choice');
  assert.match(out, /\(mdc:docs\/repo\.md\)/);
});
