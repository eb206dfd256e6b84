// npm run quality (structure part): how close the plan's sections come to what a careful person would
// choose. For each judged fixture (tests/fixtures/judged-structure/NAME/, its files plus judgement.json)
// it prints the pairwise F1 of section membership between the plan's output and the judgement; for each
// corpus repository (../shared/corpus) it prints how many lines the plan moves out of their unit.
// `--show NAME` prints the Copilot files the plan would write for that fixture or corpus repository.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scanRepository } from '../server/src/analysis/discovery/scan.js';
import { buildPlan, type Plan } from '../server/src/planning/plan.js';
import { splitText } from '../server/src/common/text.js';
import { CORPUS, corpusRepos } from '../tests/helpers/corpus.js';

const root = path.resolve(import.meta.dirname, '..');
const FIXTURES = path.join(root, 'tests/fixtures/judged-structure');
const show = process.argv.includes('--show') ? process.argv[process.argv.indexOf('--show') + 1] : undefined;

type Entry = string | [string, string];
interface Judgement {
  note?: string;
  groups: Entry[][];
}

/** A copy of `dir` in a fresh git repository, so the plan sees it as a person's repository. */
function sandbox(dir: string): string {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'co-quality-'));
  execFileSync('cp', ['-a', `${dir}/.`, repo]);
  execFileSync('chmod', ['-R', 'u+w', repo]);
  fs.rmSync(path.join(repo, 'judgement.json'), { force: true });
  execFileSync('git', ['init', '-q', repo]);
  return repo;
}

const isCopilotPath = (p: string) => p === '.github/copilot-instructions.md' || p.startsWith('.github/instructions/');

/** The Copilot files after the plan: written content where the plan writes, the file as it is elsewhere. */
function copilotFiles(repo: string, plan: Plan, sources: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of sources.filter(isCopilotPath)) out.set(p, splitText(fs.readFileSync(path.join(repo, p), 'utf8')).lines);
  for (const op of plan.operations) {
    if (!isCopilotPath(op.path)) continue;
    if (op.content === null) out.delete(op.path);
    else out.set(op.path, splitText(op.content).lines);
  }
  return out;
}

/** For each line of a file, the index of the heading it stands under (its own index for a heading); -1 above the first. */
function sectionIndex(lines: string[]): number[] {
  let fence: string | null = null;
  let current = -1;
  return lines.map((l, i) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(l);
    if (f) fence = fence === null ? f[1]![0]! : l.trim().startsWith(fence) ? null : fence;
    else if (fence === null && /^ {0,3}#{1,6}(\s|$)/.test(l)) current = i;
    return current;
  });
}

/** Where each source line (path:line) lands: the output sections it is found in. */
function landing(plan: Plan, files: Map<string, string[]>, sources: string[], repo: string): (path: string, line: number) => string[] {
  const sections = new Map([...files].map(([p, lines]) => [p, sectionIndex(lines)]));
  const at = new Map<string, string[]>();
  const add = (key: string, section: string) => {
    const list = at.get(key) ?? [];
    if (!list.includes(section)) list.push(section);
    at.set(key, list);
  };
  // A Copilot file the plan does not touch keeps every line where it is.
  const untouched = sources.filter((p) => isCopilotPath(p) && !plan.operations.some((o) => o.path === p));
  for (const p of untouched) {
    const idx = sections.get(p)!;
    files.get(p)!.forEach((_, i) => add(`${p}:${i + 1}`, `${p}#${idx[i]}`));
  }
  for (const span of plan.provenance) {
    const idx = sections.get(span.to.path);
    if (!idx) continue;
    for (let k = 0; k <= span.from.endLine - span.from.startLine; k++) {
      add(`${span.from.path}:${span.from.startLine + k}`, `${span.to.path}#${idx[span.to.startLine - 1 + k]}`);
    }
  }
  void repo;
  return (p, line) => {
    const direct = at.get(`${p}:${line}`);
    if (direct) return direct;
    // A line merged into an equal copy lands where that copy is.
    const m = plan.merged.find((x) => x.path === p && line >= x.line && line < x.line + x.lines);
    if (m) return at.get(`${m.keptAt.path}:${m.keptAt.line + (line - m.line)}`) ?? [];
    return [];
  };
}

/** Pairwise F1 of "in the same section" between the judgement and the plan's output. */
function pairwiseF1(items: { group: number; section: string }[]): number {
  let both = 0;
  let judged = 0;
  let planned = 0;
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i]!.group === items[j]!.group;
      const b = items[i]!.section === items[j]!.section;
      if (a) judged++;
      if (b) planned++;
      if (a && b) both++;
    }
  }
  if (judged === 0 && planned === 0) return 1;
  const precision = planned === 0 ? 1 : both / planned;
  const recall = judged === 0 ? 1 : both / judged;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

async function planFor(dir: string) {
  const repo = sandbox(dir);
  try {
    const scan = await scanRepository(repo);
    const plan = buildPlan(scan);
    const sources = scan.sources.map((s) => s.path);
    const files = copilotFiles(repo, plan, sources);
    const lines = new Map(sources.map((p) => [p, splitText(fs.readFileSync(path.join(repo, p), 'utf8')).lines]));
    return { plan, files, sources, lines, where: landing(plan, files, sources, repo) };
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

function printFiles(files: Map<string, string[]>): void {
  for (const [p, lines] of files) console.log(`----- ${p}\n${lines.join('\n')}`);
}

async function judged(name: string): Promise<number> {
  const dir = path.join(FIXTURES, name);
  const judgement = JSON.parse(fs.readFileSync(path.join(dir, 'judgement.json'), 'utf8')) as Judgement;
  const { files, sources, lines, where, plan } = await planFor(dir);
  if (show === name) printFiles(files);
  const items: { group: number; section: string }[] = [];
  const missing: string[] = [];
  judgement.groups.forEach((group, g) => {
    for (const entry of group) {
      const [file, text] = typeof entry === 'string' ? [null, entry] : entry;
      const p = sources.find((s) => (file === null || s === file) && lines.get(s)!.includes(text));
      if (!p) throw new Error(`${name}: judged line not in any source: ${JSON.stringify(entry)}`);
      const line = lines.get(p)!.indexOf(text) + 1;
      const found = where(p, line);
      if (found.length === 0) missing.push(text);
      items.push({ group: g, section: found[0] ?? `missing:${p}:${line}` });
    }
  });
  const f1 = pairwiseF1(items);
  const extra = missing.length ? `  (${missing.length} judged line(s) not found in Copilot's files)` : '';
  console.log(`  ${name.padEnd(24)} F1 ${f1.toFixed(3)}  ${plan.operations.length} operation(s)${extra}`);
  return f1;
}

/**
 * Lines the plan moves out of their unit: a line that stood under a heading and no longer stands
 * under that heading's line, or a list item that no longer follows its lead-in's section.
 */
async function corpus(name: string): Promise<{ moved: number; total: number }> {
  const { files, sources, lines, where, plan } = await planFor(path.join(CORPUS, name));
  if (show === name) printFiles(files);
  let moved = 0;
  let total = 0;
  let merged = 0;
  const examples: string[] = [];
  // A rule merged into an equal one another file wrote is deduplicated, not moved out of its unit: counted apart.
  const isMerged = (p: string, line: number) =>
    plan.merged.some((m) => m.path === p && line >= m.line && line < m.line + m.lines && m.lines === 1);
  for (const p of sources) {
    if (isCopilotPath(p) && !plan.operations.some((o) => o.path === p)) continue;
    const src = lines.get(p)!;
    const heads = unitHeads(src);
    src.forEach((l, i) => {
      const h = heads[i]!;
      if (l.trim() === '' || h < 0 || h === i) return;
      const here = where(p, i + 1);
      const head = where(p, h + 1);
      if (here.length === 0 || head.length === 0) return;
      total++;
      if (!here.some((s) => head.includes(s)) && isMerged(p, i + 1)) merged++;
      else if (!here.some((s) => head.includes(s))) {
        moved++;
        if (examples.length < 3)
          examples.push(`${p}:${i + 1} ${JSON.stringify(l.slice(0, 60))} left ${JSON.stringify(src[h]!.slice(0, 40))}`);
      }
    });
  }
  console.log(
    `  ${name.padEnd(40)} ${String(moved).padStart(4)} of ${total} lines moved out of their unit${merged ? ` (${merged} one-line rule(s) merged into an equal rule elsewhere)` : ''}`,
  );
  for (const e of examples) console.log(`      e.g. ${e}`);
  return { moved, total };
}

/**
 * For each source line, the line that heads its unit: the heading it stands under, a bold line alone
 * (`**Title:**`) under that heading, or a lead-in ending in ':' for the list, table or code right
 * after it. -1 when nothing heads it. A heading heads itself.
 */
function unitHeads(src: string[]): number[] {
  const heads: number[] = [];
  let heading = -1;
  let pseudo = -1;
  let leadIn = -1;
  let fence: string | null = null;
  src.forEach((l, i) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(l);
    if (fence !== null) {
      if (f && l.trim().startsWith(fence)) fence = null;
      heads.push(leadIn >= 0 ? leadIn : pseudo >= 0 ? pseudo : heading);
      return;
    }
    if (/^ {0,3}#{1,6}(\s|$)/.test(l)) {
      heading = i;
      pseudo = -1;
      leadIn = -1;
      heads.push(i);
      return;
    }
    if (f) fence = f[1]![0]!;
    const t = l.trim();
    const inBlock = f !== null || /^([-*+]|\d+[.)])\s/.test(t) || t.startsWith('|') || /^\s/.test(l);
    if (t !== '' && !inBlock) leadIn = -1;
    heads.push(leadIn >= 0 ? leadIn : pseudo >= 0 ? pseudo : heading);
    if (/^\*\*[^*]+\*\*:?$/.test(t)) {
      pseudo = i;
      heads[i] = i;
    } else if (t.endsWith(':') && !inBlock) {
      leadIn = i;
    }
  });
  return heads;
}

const names = fs
  .readdirSync(FIXTURES)
  .filter((n) => fs.existsSync(path.join(FIXTURES, n, 'judgement.json')))
  .sort();
console.log(`structure: ${names.length} judged fixtures (pairwise F1 of section membership, plan against judgement)`);
const scores: number[] = [];
for (const n of names) scores.push(await judged(n));
const mean = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
console.log(`  mean F1 ${mean.toFixed(3)}`);

if (!fs.existsSync(path.join(CORPUS, 'MANIFEST.tsv'))) {
  console.log(`structure: corpus absent at ${CORPUS}; corpus figures skipped`);
} else {
  const repos = corpusRepos();
  console.log(`structure: ${repos.length} corpus repositories (lines that stood under a heading and no longer do)`);
  let moved = 0;
  let total = 0;
  for (const r of repos) {
    const c = await corpus(r);
    moved += c.moved;
    total += c.total;
  }
  console.log(`  corpus: ${moved} of ${total} lines moved out of their unit`);
}
