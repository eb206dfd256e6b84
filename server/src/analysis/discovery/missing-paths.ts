import type { InstructionDoc, Unit } from '../../model/model.js';
import type { Found } from '../../model/problem.js';
import { showExcerpt } from '../../show/untrusted.js';
import { proseLines } from '../contradictions/claims.js';
import { inSkippedDir } from './discover.js';

/**
 * A rule that names a file the repository does not have: "see `docs/setup-guide.md`" after the guide
 * was renamed. Only what clearly is a repository path is read, in prose (code blocks are examples):
 * a code span or a link's target that holds a `/` and ends in a file extension, or starts with
 * `./` or `../`. Never a URL, a glob, a placeholder (`<name>`, `{id}`, `$VAR`), an absolute or home
 * path, a domain (`github.com/x.js`), or a line that gives an example ("e.g.", "for example") or
 * asks for a new file ("create", "add a"). A path counts as there when git lists it (or the walk
 * finds it), from the repository's root or from the instruction file's folder, as a file or a
 * folder, or as the end of a listed file's path (a monorepo's `src/index.ts`). It is reported only
 * when the folder it names holds files other than instruction files: a path whose folder is missing
 * too is more likely an example than a rule gone stale, and a folder of instruction files alone
 * (a copy of a repository's rules, without its code) says nothing of what else is there. Files git
 * usually ignores, and so never lists, are not looked for: `.env` files, `*.local` ones, build
 * output (`dist/`, `build/`, `target/`, ...) and tools' own dot-folders (`.cursor/`, `.vscode/`;
 * `.github/` is looked for). Low certainty: not measured on the judged set (model/findings.ts).
 */

/** A code span, a Markdown link's target, or a bare `./` or `../` path. */
const MENTION = /`([^`\s]+)`|\]\(([^)\s]+)\)|(?:^|[\s(])(\.\.?\/[^\s`)'",;]+)/g;
/** Words that make a line's paths examples or files to make, not files that must be there. */
const NOT_A_CLAIM =
  /\b(?:e\.g\.|i\.e\.|for example|for instance|such as|example|examples|sample|placeholder|like|create|creates|creating|add an?|new|generate[sd]?|rename[sd]?|move[sd]?|would|could|if you|when you)\b/i;
/** A file name's extension: a letter, then letters or digits (not a version's `1.2`). */
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;
/** A scheme (`https:`, `file:`, `C:`), or characters no plain path holds: a glob, a placeholder, a variable, a query. */
const NOT_A_PATH = /^[A-Za-z][\w+.-]*:|[*?[\]{}<>$%|\\=&#@!^~]|\.\.\.|\/\//;

/** Folders whose files git usually ignores (build output, caches, virtual environments). */
const IGNORED_FOLDERS = new Set(['dist', 'build', 'out', 'target', 'coverage', 'tmp', 'temp', 'bin', 'obj', '__pycache__', 'venv']);
/** A file git usually ignores: a `.env`, a `*.local` one, in build output or in a tool's dot-folder other than `.github/`. */
function usuallyIgnored(p: string): boolean {
  const parts = p.split('/').filter((s) => s !== '.' && s !== '..');
  const name = parts[parts.length - 1]!;
  if (name.startsWith('.env') || /\.local(?:\.|$)/.test(name)) return true;
  return parts.slice(0, -1).some((s) => IGNORED_FOLDERS.has(s) || (s.startsWith('.') && s !== '.github'));
}

/** The repository path a mention names, as written (without `./`, a trailing `:12` line or punctuation), or null when it is not clearly one. */
export function namedPath(raw: string): string | null {
  const p = raw
    .replace(/#[\w.-]*$/, '')
    .replace(/[.,;:]+$/, '')
    .replace(/:\d+(?::\d+)?$/, '');
  if (p.startsWith('/') || NOT_A_PATH.test(p)) return null;
  const parts = p.split('/');
  const relative = parts[0] === '.' || parts[0] === '..';
  if (!relative && parts.length < 2) return null;
  const name = parts[parts.length - 1]!;
  if (!EXTENSION.test(name) || parts.some((s, i) => s === '' && i > 0)) return null;
  // `github.com/owner/x.js`, `example.org/a.md`: a first part with a dot is a domain, unless a dot folder.
  const first = relative ? (parts.find((s) => s !== '.' && s !== '..') ?? '') : parts[0]!;
  if (!first.startsWith('.') && first.includes('.') && parts.length > 1 && first !== name) return null;
  return usuallyIgnored(p) ? null : p;
}

/** The repository paths a mention may mean: from the root, and from the file's own folder. */
function resolved(p: string, folder: string): string[] {
  const from = (base: string): string | null => {
    const out = base === '' ? [] : base.split('/');
    for (const s of p.split('/')) {
      if (s === '.') continue;
      if (s === '..') {
        if (out.length === 0) return null;
        out.pop();
      } else out.push(s);
    }
    return out.join('/');
  };
  const relative = p.startsWith('./') || p.startsWith('../');
  const bases = relative || folder === '' ? [folder] : ['', folder];
  return bases.map(from).filter((r): r is string => r !== null && r !== '');
}

/** A file named like an instruction file, wherever it sits (`python/.github/instructions/x.instructions.md` is no format's, and no code). */
const INSTRUCTION_NAME = /\.instructions\.md$|\.mdc$|^(?:AGENTS|CLAUDE|GEMINI)\.md$/i;

/**
 * The listing as looked up: files, folders that hold a file other than an instruction file, and
 * files by name (for the end of a path). Made only when a rule names a path.
 */
class Listing {
  readonly files: Set<string>;
  readonly folders = new Set<string>();
  readonly byName = new Map<string, string[]>();
  /** Whether the root holds a file other than an instruction file. */
  readonly rootHolds: boolean;

  constructor(paths: readonly string[], instructions: ReadonlySet<string>) {
    this.files = new Set(paths);
    let rootHolds = false;
    for (const p of paths) {
      const cut = p.lastIndexOf('/');
      const name = p.slice(cut + 1);
      const same = this.byName.get(name);
      if (same) same.push(p);
      else this.byName.set(name, [p]);
      if (instructions.has(p) || INSTRUCTION_NAME.test(name)) continue;
      if (cut < 0) rootHolds = true;
      for (let i = cut; i > 0; i = p.lastIndexOf('/', i - 1)) {
        const folder = p.slice(0, i);
        if (this.folders.has(folder)) break;
        this.folders.add(folder);
      }
    }
    this.rootHolds = rootHolds;
  }

  has(p: string): boolean {
    if (this.files.has(p) || this.folders.has(p)) return true;
    const name = p.slice(p.lastIndexOf('/') + 1);
    return (this.byName.get(name) ?? []).some((f) => f.endsWith(`/${p}`));
  }

  /** Whether the folder a path names holds files other than instruction files. */
  folderHolds(p: string): boolean {
    const cut = p.lastIndexOf('/');
    return cut < 0 ? this.rootHolds : this.folders.has(p.slice(0, cut));
  }
}

interface Mention {
  path: string;
  /** The repository paths it may mean. */
  candidates: string[];
  unit: Unit;
  line: number;
}

/** The paths the rules of the documents name that the repository does not have: one problem per path, at every line naming it. */
export function findMissingPaths(docs: readonly InstructionDoc[], listing: readonly string[], instructions: ReadonlySet<string>): Found[] {
  const mentions: Mention[] = [];
  for (const doc of docs) {
    const folder = doc.path.includes('/') ? doc.path.slice(0, doc.path.lastIndexOf('/')) : '';
    for (const u of doc.units) {
      if (u.kind === 'code' || u.kind === 'frontmatter' || u.kind === 'html') continue;
      for (const i of proseLines(u)) {
        const text = u.lines[i]!;
        if (!text.includes('/') || NOT_A_CLAIM.test(text)) continue;
        for (const m of text.matchAll(MENTION)) {
          const p = namedPath(m[1] ?? m[2] ?? m[3]!);
          if (p !== null) mentions.push({ path: p, candidates: resolved(p, folder), unit: u, line: u.line + i });
        }
      }
    }
  }
  if (mentions.length === 0) return [];
  const files = new Listing(listing, instructions);
  const missing = new Map<string, Mention[]>();
  for (const m of mentions) {
    if (m.candidates.length === 0 || m.candidates.some((c) => files.has(c) || inSkippedDir(c))) continue;
    if (!m.candidates.some((c) => files.folderHolds(c))) continue;
    const same = missing.get(m.path);
    if (same) same.push(m);
    else missing.set(m.path, [m]);
  }
  return [...missing].map(([p, at]) => ({
    type: 'ambiguity' as const,
    kind: 'missing-path' as const,
    description: `A rule names ${showExcerpt(p, 120)}, which is not in the repository: the file was moved or removed, or the rule is out of date`,
    locations: [...new Map(at.map((m) => [`${m.unit.path}:${m.line}`, { path: m.unit.path, line: m.line }])).values()],
  }));
}
