import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, tempDir } from '../helpers/sandbox.js';
import { CORPUS, corpusRepos, requireCorpus } from '../helpers/corpus.js';
import { codeSpanTexts, mdcDestinations, movablePaths } from '../../server/src/model/links.js';

/**
 * End to end over real instruction files: every repository of ../shared/corpus is copied into a
 * sandbox, analyzed, proposed, approved, migrated, re-proposed (nothing left to do) and rolled back.
 */
const MANIFEST = path.join(CORPUS, 'MANIFEST.tsv');

if (!fs.existsSync(MANIFEST)) {
  test('real-world corpus', (t) => void requireCorpus(t, MANIFEST));
} else {
  for (const name of corpusRepos()) {
    test(`corpus ${name}: migrate keeps every rule line, maps scopes, and rolls back byte for byte`, async (t) => {
      const repo = tempDir(t, 'co-corpus-');
      execFileSync('cp', ['-a', `${path.join(CORPUS, name)}/.`, repo]);
      execFileSync('chmod', ['-R', 'u+w', repo]);
      execFileSync('git', ['init', '-q', repo]);
      const before = hashTree(repo);
      const s = await openSession(t, { repo, elicit: yesToAll });

      const analyzed = (await s.call('onboarding_analyze')).structuredContent as any;
      assert.equal(analyzed.outcome, 'analyzed');
      assert.ok(analyzed.sources.length > 0, 'finds instruction files');
      const proposed = (await s.call('onboarding_propose')).structuredContent as any;
      assert.equal(proposed.outcome, 'proposed', JSON.stringify(proposed).slice(0, 500));
      if (proposed.operations.length === 0) return;
      assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
      const migrated = await s.call('onboarding_migrate');
      assert.equal(outcomeOf(migrated), 'migrated', JSON.stringify(migrated.structuredContent));

      // The plan that migrate carried out (choices applied), as the state holds it.
      const planned = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/plan.json'), 'utf8'));
      const copilotLines = countLines(copilotFiles(repo).flatMap((f) => fs.readFileSync(path.join(repo, f), 'utf8').split(/\r?\n/)));
      // A legacy heading moves down with its tree (`#`s added), and a pseudo-heading becomes a heading (`#`s and a space).
      const landed = (line: string) => {
        const forms = /^#{1,6}(\s|$)/.test(line)
          ? [1, 2, 3, 4, 5].map((n) => `${'#'.repeat(n)}${line}`)
          : [1, 2, 3, 4, 5, 6].map((n) => `${'#'.repeat(n)} ${line}`);
        return [line, ...forms].reduce((n, form) => n + (copilotLines.get(form) ?? 0), 0);
      };
      for (const src of analyzed.sources) {
        if (src.aliasOf || src.notRule || src.sha256 === null) continue;
        const text = fs.readFileSync(path.join(CORPUS, name, src.path), 'utf8').replace(/^\uFEFF/, '');
        // Each line as often as this one source writes it, but a repeat of what its section said before,
        // which the plan writes once and names in `merged` (issue 40), and a line another file says in the
        // same words, a link to a file written as an `@` import of it, named in `merged` with the line kept.
        // An `@path` import line of CLAUDE.md or GEMINI.md is replaced by what it imports, which is a source of its own.
        const srcLines = text.split(/\r?\n/);
        const keptText = (at: { path: string; line: number }, lines: number) =>
          fs
            .readFileSync(path.join(CORPUS, name, at.path), 'utf8')
            .split(/\r?\n/)
            .slice(at.line - 1, at.line - 1 + lines)
            .join('\n');
        const repeats = countLines(
          (
            proposed.merged as {
              path: string;
              line: number;
              lines?: number;
              repeat?: true;
              text: string;
              keptAt: { path: string; line: number };
            }[]
          )
            .filter((m) => m.path === src.path && (m.repeat || keptText(m.keptAt, m.lines ?? 1) !== m.text))
            .flatMap((m) => srcLines.slice(m.line - 1, m.line - 1 + (m.lines ?? 1))),
        );
        // A line the plan leaves out names itself in `dropped` with its reason (a pointer to a file whose rules land in the same target).
        const dropped = countLines(
          (planned.dropped as { path: string; line: number }[]).filter((d) => d.path === src.path).map((d) => srcLines[d.line - 1]!),
        );
        for (const [line, n] of countLines(bodyLines(text, src.kind).filter((l) => !isImportLine(l, src.kind)))) {
          const found = landed(line);
          assert.ok(
            found >= n - (repeats.get(line) ?? 0) - (dropped.get(line) ?? 0),
            `${src.path}: line ${found === 0 ? 'lost' : `written ${found} times of ${n}`} in Copilot's files: ${JSON.stringify(line.slice(0, 120))}`,
          );
        }
        const globs = mdcGlobs(text, src.kind);
        if (globs)
          assert.ok(
            applyToValues(repo).some((a) => a.includes(globs[0]!)),
            `${src.path}: globs ${globs[0]} mapped to applyTo`,
          );
        const nested = /^(.+)\/(?:(?:AGENTS|CLAUDE|GEMINI|CONVENTIONS)\.md|\.roorules)$/.exec(src.path);
        // An assistant's dot-folder speaks for the folder holding it; a docs folder's guide may speak for the folder above (issue 40).
        const folder = nested?.[1]!.replace(/(^|\/)\.[a-z]+$/, '');
        if (nested && folder && !/^(?:docs?|documentation)$/.test(folder) && src.kind !== 'claude-rules') {
          const above = folder.replace(/\/(?:docs?|documentation)$/, '');
          assert.ok(
            applyToValues(repo).some((a) => a.includes(`${folder}/**`) || a.includes(`${above}/**`)),
            `${src.path}: applyTo "${folder}/**"`,
          );
        }
      }

      const again = (await s.call('onboarding_propose')).structuredContent as any;
      assert.deepEqual(
        again.operations.map((o: any) => `${o.op} ${o.path}`),
        [],
        'a migrated repository has nothing left to do',
      );

      assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
      assert.deepEqual(hashTree(repo), before, 'rollback restores every file byte for byte');
    });
  }
}

/** A line that holds one `@path` import, in a file whose tool reads imports (analysis/discovery/imports.ts). */
function isImportLine(line: string, kind: string): boolean {
  if (kind !== 'claude-md' && kind !== 'gemini-md' && kind !== 'claude-rules' && kind !== 'imported') return false;
  const m = /^\s*(?:[-*+]\s+)?@([^\s`@]+)\s*$/.exec(line);
  return m !== null && /[./~]/.test(m[1]!);
}

/** How many times each line occurs. */
/**
 * A line with its relative link destinations and `@path`/`./` paths blanked: a moved path is rewritten to lead where it led, and an
 * `@path` that is there is written as a link named by its path (issue 40; tests/planning/links.test.ts and path-references.test.ts check where).
 */
function withoutLinks(line: string): string {
  // A code-span path or an `mdc:` link naming moved rules leads where the plan wrote them (planning/repoint.ts): blanked too.
  const pointers = [...codeSpanTexts(line).filter((s) => /^[^\s]*\/[^\s]*$/.test(line.slice(s.start, s.end))), ...mdcDestinations(line)];
  for (const d of pointers.sort((a, b) => b.start - a.start)) line = `${line.slice(0, d.start)}\u0000${line.slice(d.end)}`;
  let out = line;
  for (const d of movablePaths(line).reverse())
    out =
      d.form === 'at'
        ? `${out.slice(0, d.start - 1)}[\u0000](\u0000)${out.slice(d.end)}`
        : `${out.slice(0, d.start)}\u0000${out.slice(d.end)}`;
  return out.replace(/\[[^\]\s]*[./][^\]\s]*\]\(\u0000\)/g, '[\u0000](\u0000)');
}

function countLines(lines: string[]): Map<string, number> {
  lines = lines.map(withoutLinks);
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(l, (counts.get(l) ?? 0) + 1);
  return counts;
}

function copilotFiles(repo: string): string[] {
  const out = fs.existsSync(path.join(repo, '.github/copilot-instructions.md')) ? ['.github/copilot-instructions.md'] : [];
  const dir = path.join(repo, '.github/instructions');
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.instructions.md')) out.push(path.relative(repo, p));
    }
  };
  walk(dir);
  return out;
}

/** Non-blank lines of a file's body: without the front matter block where the format has one. */
function bodyLines(text: string, kind: string): string[] {
  let lines = text.split(/\r?\n/);
  if (
    kind !== 'copilot-instructions' &&
    kind !== 'cursorrules' &&
    kind !== 'windsurfrules' &&
    kind !== 'roorules' &&
    lines[0]?.trim() === '---'
  ) {
    const close = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
    if (close > 0) lines = lines.slice(close + 1);
  }
  return lines.filter((l) => l.trim() !== '');
}

/** The globs of a Cursor rule that is neither always applied nor without globs. */
function mdcGlobs(text: string, kind: string): string[] | null {
  if (kind !== 'cursor-rules') return null;
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  if (!fm || /^alwaysApply:\s*true/m.test(fm)) return null;
  const inline = /^globs:[ \t]*(\S.*)$/m.exec(fm)?.[1];
  const list = /^globs:\s*\n((?:\s+-.*\n?)+)/m.exec(fm)?.[1];
  const raw = inline ? inline.split(',') : list ? list.split('\n').map((l) => l.replace(/^\s*-\s*/, '')) : [];
  const globs = raw.map((g) => g.trim().replace(/^["']|["']$/g, '')).filter((g) => g !== '' && g !== '[]');
  return globs.length > 0 && !fm.match(/^globs:\s*\[\]/m) ? globs.map((g) => g.replace(/^\.?\//, '')) : null;
}

function applyToValues(repo: string): string[] {
  return copilotFiles(repo)
    .map((f) => /^applyTo:\s*(.*)$/m.exec(fs.readFileSync(path.join(repo, f), 'utf8'))?.[1] ?? '')
    .filter((a) => a !== '');
}
