import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noteText } from '../../server/src/planning/note-words.js';
import type { Note } from '../../server/src/planning/notes.js';

/** The plan's notes are data with a kind; their words are written in one place. */
const at = { path: 'AGENTS.md', line: 3 };
const option = { path: 'AGENTS.md', kind: 'agents-md', target: '.github/copilot-instructions.md', fates: ['keep' as const], note: 'kept' };
const EVERY_KIND: Note[] = [
  { kind: 'copilot-blocked', link: '../AGENTS.md', through: 'AGENTS.md', why: null, moved: ['CLAUDE.md'], fallback: 'x.instructions.md' },
  { kind: 'copilot-blocked', link: null, through: null, why: 'could not be read (binary)', moved: [], fallback: null },
  { kind: 'target-blocked', target: 'x.instructions.md', why: 'is a symlink to y', from: ['a.mdc'] },
  { kind: 'pseudo-heading', at, source: '**Release:**', target: 'c.md', heading: '### Release:' },
  { kind: 'headings-moved', path: 'AGENTS.md', count: 2, target: 'c.md' },
  { kind: 'list-ended', at, line: '   indented', target: 'c.md' },
  { kind: 'already-organised', target: 'c.md' },
  { kind: 'link-replaced', target: 'c.md', link: '../AGENTS.md', shown: 'AGENTS.md' },
  { kind: 'option', option },
  { kind: 'too-long', files: [{ path: 'c.md', bytes: 5120, lines: 90, bytesBefore: 1024 }] },
  { kind: 'front-matter-lost', path: 'a.mdc', keys: ['author'], target: 'x.instructions.md' },
  { kind: 'dropped-still-said', at, text: '- Use npm.', readers: ['cloud-agent'] },
  { kind: 'not-rules', path: 'N.md', why: 'a copy of AGENTS.md', asked: false, optional: true },
  { kind: 'copy-swapped', chosen: 'CLAUDE.md', was: 'AGENTS.md', fate: 'remove' },
  { kind: 'copy-swap-ignored', path: 'GEMINI.md', keptPath: 'AGENTS.md', chosen: 'CLAUDE.md' },
  { kind: 'copy', path: 'CLAUDE.md', keptPath: 'AGENTS.md', diff: '' },
  { kind: 'synced-source', path: 'AGENTS.md', keptPath: 'c.md', readers: [] },
  { kind: 'alias', path: 'CLAUDE.md', aliasOf: 'AGENTS.md' },
  { kind: 'said', text: 'README.md is imported.' },
  { kind: 'on-request', path: 'x.instructions.md' },
  { kind: 'nothing-found' },
  { kind: 'conflicts-kept' },
  { kind: 'legacy-kept', path: 'AGENTS.md', readers: ['cloud-agent'], later: ['review-github'], target: 'c.md' },
  { kind: 'link-kept', link: '../AGENTS.md' },
  { kind: 'link-shown-kept', path: 'AGENTS.md', replaced: true },
  { kind: 'left-out', path: 'N.md', why: 'a copy of AGENTS.md' },
];

test('every kind of note has words, with its facts in them and nothing left unsaid', () => {
  const kinds = new Set(EVERY_KIND.map((n) => n.kind));
  assert.equal(kinds.size, 25, 'a sample of every kind');
  for (const note of EVERY_KIND) {
    const text = noteText(note);
    assert.ok(text.length > 0, note.kind);
    assert.doesNotMatch(text, /undefined|\[object/, note.kind);
    for (const value of Object.values(note).filter((v): v is string => typeof v === 'string' && v !== note.kind && v !== ''))
      assert.ok(text.includes(value.trim()) || note.kind === 'option', `${note.kind}: ${value} in ${text}`);
  }
});

test('a size warning names one file with its sizes, or several each with theirs', () => {
  const one = noteText({ kind: 'too-long', files: [{ path: 'c.md', bytes: 5120, lines: 90, bytesBefore: null }] });
  assert.ok(one.startsWith('Warning: c.md (5.0 KB, 90 lines) is over 4000 characters'), one);
  const two = noteText({
    kind: 'too-long',
    files: [
      { path: 'a.md', bytes: 5120, lines: 90, bytesBefore: 1024 },
      { path: 'b.md', bytes: 6144, lines: 99, bytesBefore: null },
    ],
  });
  assert.ok(two.startsWith('Warning: 2 Copilot files are: a.md (5.0 KB, 90 lines, 1.0 KB before); b.md (6.0 KB, 99 lines); each is'), two);
});
