import type { InstructionDoc } from '../../model/model.js';
import { folderGlob } from '../../model/folder-glob.js';

/**
 * Where a nested AGENTS.md's rules belong. The AGENTS.md convention scopes a nested file to its
 * folder, and that is right for a package or source folder of a monorepo; but a nested file that
 * speaks for the whole repository (it says to read it always or first, or describes the whole
 * project and names nothing of its own folder, like a `docs/AGENTS.md` overview) is repo-wide.
 * Approve's first round offers the other choice either way; the reason is said in the plan.
 */
export type ScopeReason =
  /** It says to read it always or first: repo-wide. */
  | { kind: 'read-first'; line: number; text: string }
  /** It speaks of the whole repository and names nothing of its folder: repo-wide. */
  | { kind: 'whole-project'; line: number; text: string }
  /** It names its own folder: about that folder. */
  | { kind: 'names-folder'; line: number; text: string }
  /** It sits in a package or source folder (`packages/`, `src/`, …). */
  | { kind: 'package-folder'; segment: string }
  /** Its title or opening says what part it is about (an app, an example, a package): about that part, whatever "this repo" it mentions. */
  | { kind: 'own-part'; line: number; text: string }
  /** Nothing says otherwise: the convention's folder scope. */
  | { kind: 'convention' }
  /**
   * It sits in a documentation folder but speaks of the code of the folder holding it (it names
   * `src/…` paths there, or is the guide for "working with code"): a docs folder is where the guide
   * is kept, not what it is about.
   */
  | { kind: 'docs-of-code'; line: number; text: string };

export interface NestedScope {
  path: string;
  /** The folder it speaks for, without a trailing slash: where it sits (`docs`), or the folder holding its docs folder. */
  folder: string;
  decided: 'repo' | 'folder';
  reason: ScopeReason;
}

/** Folder names that hold the packages or the source of a monorepo. */
const PACKAGE_SEGMENTS = new Set([
  'packages',
  'package',
  'apps',
  'libs',
  'lib',
  'crates',
  'services',
  'modules',
  'plugins',
  'extensions',
  'src',
  'pkg',
  'cmd',
  'internal',
  'examples',
  'integrations',
]);

const READ_FIRST =
  /\b(?:always read|read (?:this|it|me)(?: file)? (?:first|always|before)|read (?:this|it) (?:at the start|before (?:anything|any|doing|starting|making|working))|start here\b|must be read (?:first|before)|read first\b)/i;
const WHOLE_PROJECT =
  /\b(?:this (?:repository|repo|monorepo|codebase)|the (?:whole|entire) (?:project|repository|repo|codebase|monorepo)|across the (?:repository|repo|codebase|monorepo)|repository[- ]wide|repo[- ]wide|every package)\b/i;

/** A line that says, in so many words, that the file applies to the whole repository: evidence stronger than naming the folder. */
const APPLIES_WHOLE =
  /\b(?:appl(?:y|ies)|hold|are valid|is valid)\s+(?:to|for|across|throughout)\s+(?:the\s+)?(?:whole|entire|all of the|every)\s+(?:project|repository|repo|codebase|monorepo)\b/i;
/** A title or opening sentence naming the part of the repository the file is about: `# Demo app`, "This example app shows…". */
const OWN_PART = /\b(?:app|application|example|demo|sample|package|library|service|plugin|extension|crate|module|sdk)s?\b/i;

/** What may stand before a folder's name in a line: the start, white space, a quote, a backtick, a parenthesis or a bracket. */
const BEFORE_NAME = /[\s`'"([]/;

/**
 * A code unit as a case-blind regular expression without the `u` flag compares it (ECMAScript's
 * Canonicalize): upper-cased when that gives one code unit, and never from outside ASCII into it.
 */
function canonical(c: string): string {
  const u = c.toUpperCase();
  return u.length !== 1 || (c.charCodeAt(0) >= 128 && u.charCodeAt(0) < 128) ? c : u;
}

/** Whether `line` holds `name` at `at` followed by a slash, case aside. */
function nameAt(line: string, at: number, name: string): boolean {
  if (line[at + name.length] !== '/') return false;
  for (let i = 0; i < name.length; i++) {
    const [a, b] = [line[at + i]!, name[i]!];
    if (a !== b && canonical(a) !== canonical(b)) return false;
  }
  return true;
}

/**
 * Whether a line names the folder: `docs/`, `./docs/x.md`, `frontend/docs/`; not `.docs/`, `dist/docs/`
 * nor a word `docs`. Case aside, as `/(?:^|[\s\`'"(\[])(?:\.\/)?(?:folder|last)\//i` reads it: one
 * such pattern per document cost more to compile (about 0.15 ms) than reading all its lines.
 */
export function namesFolder(folder: string): (line: string) => boolean {
  const names = [...new Set([folder, folder.slice(folder.lastIndexOf('/') + 1)])];
  return (line) => {
    if (!line.includes('/')) return false;
    for (let p = 0; p < line.length; p++) {
      if (p > 0 && !BEFORE_NAME.test(line[p - 1]!)) continue;
      const starts = line.startsWith('./', p) ? [p, p + 2] : [p];
      if (starts.some((at) => names.some((n) => nameAt(line, at, n)))) return true;
    }
    return false;
  };
}

/** The first line of the document that matches, with its line number. */
function firstLine(
  doc: Pick<InstructionDoc, 'units'>,
  matches: RegExp | ((line: string) => boolean),
): { line: number; text: string } | null {
  const test = typeof matches === 'function' ? matches : (l: string) => matches.test(l);
  for (const u of doc.units) {
    if (u.kind === 'frontmatter') continue;
    const k = u.lines.findIndex(test);
    if (k >= 0) return { line: u.line + k, text: u.lines[k]! };
  }
  return null;
}

/** Folder names that hold documentation. */
const DOCS_FOLDER = /^(?:docs?|documentation)$/i;
/** A title or opening about documentation ("# Prefect Documentation", "docs/ Guidelines"): the docs folder is its subject. */
const ABOUT_DOCS = /\b(?:docs?|documentation|writing guide|style guide)\b/i;
/** A path of code in the folder above (`src/peephole/`, `lib/x.rb`), as a code span or bare. */
const CODE_PATH = /(?:^|[\s`'"(])(?:\.\/)?(?:src|lib|crates|packages|internal|cmd|pkg|app|apps|server|client|tests?)\/[\w.-]/;
/** The opening Claude Code's /init writes: guidance "when working with code in this repository". */
const WORKING_WITH_CODE = /\bworking with (?:the )?code\b/i;

/** The folder-scoped AGENTS.md (or CLAUDE.md, GEMINI.md in a docs folder) in a subfolder, and where the tool plans its rules; null for any other document. */
export function nestedScope(doc: Pick<InstructionDoc, 'path' | 'kind' | 'scope' | 'units' | 'role'>): NestedScope | null {
  const folderFile = doc.kind === 'agents-md' || doc.kind === 'claude-md' || doc.kind === 'gemini-md';
  if (!folderFile || doc.role !== 'legacy' || doc.scope.kind !== 'globs') return null;
  const slash = doc.path.lastIndexOf('/');
  if (slash < 0 || doc.scope.globs.length !== 1 || doc.scope.globs[0] !== folderGlob(doc.path.slice(0, slash))) return null;
  const folder = doc.path.slice(0, slash);
  const docs = docsOfCode(doc, folder);
  if (docs) return docs;
  // CLAUDE.md and GEMINI.md keep their folder as their tools read them; only a docs folder's guide is looked at again.
  if (doc.kind !== 'agents-md') return null;
  const at = (decided: NestedScope['decided'], reason: ScopeReason): NestedScope => ({ path: doc.path, folder, decided, reason });
  const claim = firstLine(doc, APPLIES_WHOLE);
  if (claim) return at('repo', { kind: 'whole-project', ...claim });
  const names = firstLine(doc, namesFolder(folder));
  if (names) return at('folder', { kind: 'names-folder', ...names });
  const first = firstLine(doc, READ_FIRST);
  if (first) return at('repo', { kind: 'read-first', ...first });
  const segment = folder.split('/').find((s) => PACKAGE_SEGMENTS.has(s.toLowerCase()));
  if (segment !== undefined) return at('folder', { kind: 'package-folder', segment });
  // "In this repo" inside an app's or an example's file is no evidence: its opening says what part it is about.
  const part = openingPart(doc);
  if (part) return at('folder', { kind: 'own-part', ...part });
  const whole = firstLine(doc, WHOLE_PROJECT);
  return whole ? at('repo', { kind: 'whole-project', ...whole }) : at('folder', { kind: 'convention' });
}

/** The title, or the first line of prose, when it names the part of the repository the file is about. */
function openingPart(doc: Pick<InstructionDoc, 'units'>): { line: number; text: string } | null {
  const title = doc.units.find((u) => u.kind === 'heading');
  const prose = doc.units.find((u) => u.kind === 'paragraph');
  for (const u of [title, prose]) {
    const text = u?.lines[0];
    if (u && text !== undefined && OWN_PART.test(text) && !WHOLE_PROJECT.test(text.split(/[.!?]\s/)[0]!)) return { line: u.line, text };
  }
  return null;
}

/**
 * A guide kept in a documentation folder that speaks of the code of the folder holding it: scoped to
 * that folder (repo-wide when it is the root). Its title or opening naming documentation keeps it on
 * the docs folder, as does the absence of evidence: many docs folders have a guide for writing docs.
 */
function docsOfCode(doc: Pick<InstructionDoc, 'path' | 'units'>, folder: string): NestedScope | null {
  const cut = folder.lastIndexOf('/');
  if (!DOCS_FOLDER.test(folder.slice(cut + 1))) return null;
  const title = doc.units.find((u) => u.kind === 'heading');
  const prose = doc.units.find((u) => u.kind === 'paragraph');
  if ([title, prose].some((u) => u !== undefined && ABOUT_DOCS.test(u.lines[0]!.replace(/\b(?:CLAUDE|AGENTS|GEMINI)\.md\b/g, ''))))
    return null;
  const evidence = firstLine(doc, WORKING_WITH_CODE) ?? firstLine(doc, CODE_PATH);
  if (!evidence) return null;
  const parent = cut < 0 ? '' : folder.slice(0, cut);
  const reason = { kind: 'docs-of-code' as const, ...evidence };
  // At the root, the choice is the repository or the docs folder itself; below it, the folder above or the repository.
  return parent === ''
    ? { path: doc.path, folder, decided: 'repo', reason }
    : { path: doc.path, folder: parent, decided: 'folder', reason };
}
