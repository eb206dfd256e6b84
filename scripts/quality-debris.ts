// npm run quality (debris part): what a maintainer would have to clean up by hand in the files a plan
// writes, counted across every corpus repository (../shared/corpus, planned in process on copies in a
// temp dir): headings with nothing under them, lead-ins split from the list, table or code they
// introduce, and globs without a slash in `applyTo` (GitHub matches applyTo against the
// repository-relative path, so `*.ts` matches only at the root). All three must be zero, and so
// must the empty headings with every file's lines for another assistant left out (approve's
// `leave_out`) and the places where the pattern label and the plan disagree
// (tests/helpers/pattern-agreement.ts). Listed beside them, not defects: the lines for another
// assistant, those the tool can rewrite, and the nested AGENTS.md files planned repo-wide or kept
// to their folders. `--list` prints every case found.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scanRepository } from '../server/src/analysis/discovery/scan.js';
import { buildPlan, type Plan } from '../server/src/planning/plan.js';
import { globList, readFrontMatter } from '../server/src/model/frontmatter.js';
import { splitText } from '../server/src/common/text.js';
import { otherAssistantLines } from '../server/src/analysis/discovery/other-assistants.js';
import { CORPUS, corpusRepos } from '../tests/helpers/corpus.js';
import { emptyHeadings, fenced } from '../tests/helpers/debris.js';
import { labelDisagreements } from '../tests/helpers/pattern-agreement.js';

const list = process.argv.includes('--list');

const HEADING = /^ {0,3}(#{1,6})(\s|$)/;
const BLOCK_START = /^\s*([-*+]\s|\d+[.)]\s|\||`{3,}|~{3,})/;

/** A source's lead-ins: a line ending in ':' whose next non-blank line starts a list, table or code block. */
function leadIns(lines: string[]): [number, number][] {
  const inFence = fenced(lines);
  const out: [number, number][] = [];
  lines.forEach((l, i) => {
    const t = l.trim();
    if (inFence[i] || !t.endsWith(':') || HEADING.test(l) || BLOCK_START.test(l) || /^\s/.test(l)) return;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === '') j++;
    if (j < lines.length && BLOCK_START.test(lines[j]!)) out.push([i + 1, j + 1]);
  });
  return out;
}

/** Where a source line is written: file and line, following a merged repeat to its kept copy. */
function writtenAt(plan: Plan): (p: string, line: number) => [string, number] | null {
  const at = new Map<string, [string, number]>();
  for (const s of plan.provenance)
    for (let k = 0; k <= s.from.endLine - s.from.startLine; k++)
      at.set(`${s.from.path}:${s.from.startLine + k}`, [s.to.path, s.to.startLine + k]);
  const find = (p: string, line: number, depth = 0): [string, number] | null => {
    const direct = at.get(`${p}:${line}`);
    if (direct) return direct;
    const m = plan.merged.find((x) => x.path === p && line >= x.line && line < x.line + x.lines);
    return m && depth < 4 ? find(m.keptAt.path, m.keptAt.line + (line - m.line), depth + 1) : null;
  };
  return find;
}

/** Where a written line came from: source file and line, by `path:line` of the written file. */
function sourceOf(plan: Plan): Map<string, [string, number]> {
  const at = new Map<string, [string, number]>();
  for (const s of plan.provenance)
    for (let k = 0; k <= s.to.endLine - s.to.startLine; k++)
      at.set(`${s.to.path}:${s.to.startLine + k}`, [s.from.path, s.from.startLine + k]);
  return at;
}

/** Globs of a written file's `applyTo` that hold no slash (`**` alone applies everywhere and is fine). */
function unslashed(lines: string[]): string[] {
  const fm = readFrontMatter(lines);
  return globList(fm?.data.applyTo).filter((g) => !g.includes('/') && g !== '**' && g !== '*');
}

interface Counts {
  empty: string[];
  split: string[];
  globs: string[];
  /** Lines written for another assistant in the migrated files, listed in the plan's notes (not a defect count). */
  other: string[];
  /** Of those, the lines the tool has a rewrite for Copilot for. */
  rewritable: string[];
  /** Empty headings when every file's lines for another assistant are left out. */
  emptyLeftOut: string[];
  /** Where the pattern label and the plan disagree. */
  label: string[];
  /** Nested AGENTS.md files planned repo-wide, and kept to their folders. */
  repoWide: string[];
  folder: string[];
}

/** The headings a plan's written files hold with nothing under them that their author did not leave empty. */
function emptyIn(name: string, plan: Plan, sourceLines: (p: string) => string[]): string[] {
  const found: string[] = [];
  const source = sourceOf(plan);
  for (const o of plan.operations) {
    if (o.content === null) continue;
    const lines = splitText(o.content).lines;
    for (const i of emptyHeadings(lines)) {
      // A heading its author left empty is the author's; only one the plan emptied is debris.
      const from = source.get(`${o.path}:${i + 1}`);
      if (from && emptyHeadings(sourceLines(from[0])).includes(from[1] - 1)) continue;
      found.push(`${name}: ${o.path}:${i + 1} ${JSON.stringify(lines[i])}`);
    }
  }
  return found;
}

async function count(name: string): Promise<Counts> {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'co-debris-'));
  try {
    execFileSync('cp', ['-a', `${path.join(CORPUS, name)}/.`, repo]);
    execFileSync('chmod', ['-R', 'u+w', repo]);
    execFileSync('git', ['init', '-q', repo]);
    const scan = await scanRepository(repo);
    const plan = buildPlan(scan);
    const written = new Map(plan.operations.filter((o) => o.content !== null).map((o) => [o.path, splitText(o.content!).lines]));
    const c: Counts = { empty: [], split: [], globs: [], other: [], rewritable: [], emptyLeftOut: [], label: [], repoWide: [], folder: [] };
    const migrated = new Set(plan.provenance.map((s) => s.from.path));
    for (const doc of scan.docs.filter((d) => d.role === 'legacy' && migrated.has(d.path)))
      for (const l of otherAssistantLines(doc)) c.other.push(`${name}: ${doc.path}:${l.line} (${l.names})`);
    for (const o of plan.assistants)
      for (const l of o.lines) if (l.rewrite !== null) c.rewritable.push(`${name}: ${o.path}:${l.line} ${JSON.stringify(l.rewrite)}`);
    for (const o of plan.scopes) (o.decided === 'repo' ? c.repoWide : c.folder).push(`${name}: ${o.path} (${o.reason})`);
    const sourceLines = (p: string) => splitText(fs.readFileSync(path.join(repo, p), 'utf8')).lines;
    c.empty.push(...emptyIn(name, plan, sourceLines));
    if (plan.assistants.length > 0) {
      const leaveOut = Object.fromEntries(plan.assistants.map((o) => [o.path, 'leave_out' as const]));
      c.emptyLeftOut.push(...emptyIn(name, buildPlan(scan, undefined, { legacy: {}, conflicts: {}, assistants: leaveOut }), sourceLines));
    }
    c.label.push(...labelDisagreements(scan).map((d) => `${name}: ${d}`));
    for (const [p, lines] of written) for (const g of unslashed(lines)) c.globs.push(`${name}: ${p} applyTo ${JSON.stringify(g)}`);
    const where = writtenAt(plan);
    // A line merged as said already in other words (a guide restating the person's Copilot file, issue 40)
    // is not written anywhere: where the line that says it stands is no place for its lead-in or block.
    const squeezed = (t: string | undefined) => (t ?? '').trim().replace(/\s+/g, ' ');
    const inOtherWords = (p: string, line: number) => {
      const m = plan.merged.find((x) => x.path === p && line >= x.line && line < x.line + x.lines);
      return (
        m !== undefined && squeezed(sourceLines(m.keptAt.path)[m.keptAt.line + (line - m.line) - 1]) !== squeezed(sourceLines(p)[line - 1])
      );
    };
    for (const src of scan.sources) {
      if (!plan.provenance.some((s) => s.from.path === src.path)) continue;
      const lines = sourceLines(src.path);
      for (const [lead, block] of leadIns(lines)) {
        // The lead-in, then its block up to the first blank line outside a fence: each written right after the one before.
        const inFence = fenced(lines);
        let end = block;
        while (end < lines.length && (lines[end]!.trim() !== '' || inFence[end]!)) end++;
        const run = [lead, ...Array.from({ length: end - block + 1 }, (_, k) => block + k)];
        if (run.every((l) => lines[l - 1]?.trim() === '' || inOtherWords(src.path, l))) continue;
        const at = run.map((l) => where(src.path, l));
        if (at.every((a) => a === null || !written.has(a[0]))) continue;
        const apart = at.some((b, k) => {
          const a = at[k - 1];
          if (k === 0 || !a || !b) return false;
          const out = written.get(a[0]);
          return a[0] !== b[0] || b[1] <= a[1] || !out || out.slice(a[1], b[1] - 1).some((l) => l.trim() !== '');
        });
        if (apart) c.split.push(`${name}: ${src.path}:${lead} ${JSON.stringify(lines[lead - 1]!.slice(0, 60))}`);
      }
    }
    return c;
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

if (!fs.existsSync(path.join(CORPUS, 'MANIFEST.tsv'))) {
  console.log(`debris: corpus absent at ${CORPUS}; skipped`);
} else {
  const repos = corpusRepos();
  const all: Counts = { empty: [], split: [], globs: [], other: [], rewritable: [], emptyLeftOut: [], label: [], repoWide: [], folder: [] };
  for (const r of repos) {
    const c = await count(r);
    for (const k of Object.keys(all) as (keyof Counts)[]) all[k].push(...c[k]);
  }
  console.log(`debris: ${repos.length} corpus repositories (each must be 0)`);
  console.log(`  empty headings           ${all.empty.length}`);
  console.log(`  lead-ins split off       ${all.split.length}`);
  console.log(`  applyTo globs without /  ${all.globs.length}`);
  console.log(`  empty headings, lines for another assistant left out  ${all.emptyLeftOut.length}`);
  console.log(`  pattern label and plan disagree  ${all.label.length}`);
  console.log(
    `  (listed in the notes: lines for another assistant, ${all.other.length}; of them with a rewrite for Copilot, ${all.rewritable.length})`,
  );
  console.log(`  (nested AGENTS.md: planned repo-wide ${all.repoWide.length}, kept to their folders ${all.folder.length})`);
  const defects = [...all.empty, ...all.split, ...all.globs, ...all.emptyLeftOut, ...all.label];
  if (list) for (const line of [...defects, ...all.repoWide]) console.log(`    ${line}`);
  process.exitCode = defects.length > 0 ? 1 : 0;
}
