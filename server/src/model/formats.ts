/**
 * The one format registry: every instruction-file format the tool knows, as data. Each format's
 * detection and parsing (the code) is in its own module in `analysis/formats/`; what the rest of the
 * code asks about a format (where its files sit, which front matter it reads, how its scope is set,
 * which Copilot surface reads it, whether it imports or may become a pointer) is answered here.
 * Adding a format is adding its row here and its own module in `analysis/formats/`.
 *
 * No zod here: the read-only path reads this table without loading it. The zod enum of the ids is
 * `FormatIdSchema` in `source.ts`, built from `FORMAT_IDS`.
 */

/** Every format id, in the order files are reported and merged (`analysis/formats/registry.ts` follows it). */
export const FORMAT_IDS = [
  'copilot-instructions',
  'copilot-path-instructions',
  'agents-md',
  'claude-md',
  'claude-rules',
  'gemini-md',
  'cursorrules',
  'cursor-rules',
  'windsurfrules',
  'windsurf-rules',
  'clinerules',
  'roorules',
  // After every tool's rules folder, so that `.cursor/rules/CONVENTIONS.md` stays a Cursor rule.
  'conventions-md',
  'nested-copilot',
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

/** The kind of a file that is not an instruction file by itself, read because an instruction file imports it. */
export const IMPORTED_KIND = 'imported';
/** A document's kind: its format, or `imported`. */
export type DocKind = FormatId | typeof IMPORTED_KIND;

/** The Copilot surfaces, in the order they are named to a person (their names: `analysis/scope/surfaces.ts`). */
export const SURFACES = ['vscode-chat', 'cloud-agent', 'review-github', 'review-vscode', 'copilot-cli'] as const;
export type Surface = (typeof SURFACES)[number];

/** A file as the surfaces tell files apart: by format and by where it sits (a row of "who reads what"). */
export type ReadFile =
  | 'copilot-instructions'
  | 'path-instructions'
  | 'root-agents-md'
  | 'nested-agents-md'
  | 'root-claude-md'
  | 'dot-claude-claude-md'
  | 'root-gemini-md'
  | 'claude-rules';

/** Where a file sits for a row to hold: every given part must match its repository path. */
export interface Placement {
  /** The whole path. */
  path?: string;
  prefix?: string;
  suffix?: string;
}

/** A place a file of the format is read from, the row it is in "who reads what", and the surfaces that read it there. */
export interface ReadBy {
  at: Placement;
  row: ReadFile;
  surfaces: readonly Surface[];
}

/**
 * How a file's scope is set: `repo` always repository-wide; `folder` the folder it sits in (or the
 * folder holding its tool's dot-folder; the root is repository-wide); `front-matter` its front
 * matter's fields (globs, a trigger, alwaysApply), else as `folder` (Copilot's own path files: else
 * on request).
 */
export type ScopeRule = 'repo' | 'folder' | 'front-matter';

export interface FormatFacts {
  /** Human name for reports. */
  title: string;
  /** Copilot's own files are the target layout; legacy files are what gets migrated. */
  role: 'copilot' | 'legacy';
  /** Where its files sit, as globs for people (detection is the format module's `detect`). */
  paths: readonly string[];
  /** The front matter fields it reads; null when a leading `---` block is text, not front matter. */
  frontMatter: readonly string[] | null;
  scope: ScopeRule;
  /** The name of the one file that holds the rules of the folder it sits in: a nested one is named after its folder. */
  folderFile: string | null;
  /** The tool's dot-folder its rule files sit in (its rules apply below the folder holding it). */
  dotFolder: string | null;
  /** Whether its tool reads an `@path` line as "put that file's text here" (Claude Code, Gemini CLI). */
  imports: boolean;
  /** Whether approve may turn it into a one-line `@path` pointer at the Copilot file. */
  pointer: boolean;
  /** Who reads it today; empty when no Copilot surface does. */
  readBy: readonly ReadBy[];
}

const NOT_IMPORTING = { imports: false, pointer: false } as const;
const FLAT = { frontMatter: null, scope: 'folder', dotFolder: null, readBy: [], ...NOT_IMPORTING } as const;

/** The table. Sources for `readBy`: `analysis/scope/surfaces.ts`. */
export const FORMATS_FACTS: Readonly<Record<FormatId, FormatFacts>> = {
  'copilot-instructions': {
    title: 'Copilot repository instructions',
    role: 'copilot',
    paths: ['.github/copilot-instructions.md'],
    frontMatter: null,
    scope: 'repo',
    folderFile: null,
    dotFolder: null,
    ...NOT_IMPORTING,
    readBy: [{ at: {}, row: 'copilot-instructions', surfaces: SURFACES }],
  },
  'copilot-path-instructions': {
    title: 'Copilot path-specific instructions',
    role: 'copilot',
    paths: ['.github/instructions/**/*.instructions.md'],
    frontMatter: ['applyTo', 'description', 'excludeAgent'],
    scope: 'front-matter',
    folderFile: null,
    dotFolder: null,
    ...NOT_IMPORTING,
    readBy: [{ at: {}, row: 'path-instructions', surfaces: ['vscode-chat', 'cloud-agent', 'review-github', 'copilot-cli'] }],
  },
  'agents-md': {
    title: 'AGENTS.md',
    role: 'legacy',
    paths: ['**/AGENTS.md'],
    frontMatter: ['description'],
    scope: 'folder',
    folderFile: 'AGENTS.md',
    dotFolder: null,
    ...NOT_IMPORTING,
    readBy: [
      { at: { path: 'AGENTS.md' }, row: 'root-agents-md', surfaces: ['vscode-chat', 'cloud-agent', 'copilot-cli'] },
      { at: { suffix: '/AGENTS.md' }, row: 'nested-agents-md', surfaces: ['cloud-agent'] },
    ],
  },
  'claude-md': {
    title: 'CLAUDE.md',
    role: 'legacy',
    paths: ['**/CLAUDE.md', '**/.claude/CLAUDE.md'],
    frontMatter: ['description'],
    scope: 'folder',
    folderFile: 'CLAUDE.md',
    dotFolder: null,
    imports: true,
    pointer: true,
    readBy: [
      { at: { path: 'CLAUDE.md' }, row: 'root-claude-md', surfaces: ['vscode-chat', 'cloud-agent', 'copilot-cli'] },
      { at: { path: '.claude/CLAUDE.md' }, row: 'dot-claude-claude-md', surfaces: ['vscode-chat'] },
    ],
  },
  'claude-rules': {
    title: 'Claude Code rules (.claude/rules)',
    role: 'legacy',
    paths: ['**/.claude/rules/**/*.md'],
    frontMatter: ['paths', 'description'],
    scope: 'front-matter',
    folderFile: null,
    dotFolder: '.claude',
    imports: true,
    pointer: false,
    readBy: [{ at: { prefix: '.claude/rules/', suffix: '.md' }, row: 'claude-rules', surfaces: ['vscode-chat'] }],
  },
  'gemini-md': {
    title: 'GEMINI.md',
    role: 'legacy',
    paths: ['**/GEMINI.md'],
    frontMatter: ['description'],
    scope: 'folder',
    folderFile: 'GEMINI.md',
    dotFolder: null,
    imports: true,
    pointer: true,
    readBy: [{ at: { path: 'GEMINI.md' }, row: 'root-gemini-md', surfaces: ['cloud-agent', 'copilot-cli'] }],
  },
  cursorrules: {
    ...FLAT,
    title: 'Cursor rules (legacy .cursorrules)',
    role: 'legacy',
    paths: ['**/.cursorrules'],
    folderFile: '.cursorrules',
  },
  'cursor-rules': {
    title: 'Cursor project rules',
    role: 'legacy',
    paths: ['**/.cursor/rules/**/*.mdc', '**/.cursor/rules/**/*.md'],
    frontMatter: ['description', 'globs', 'alwaysApply'],
    scope: 'front-matter',
    folderFile: null,
    dotFolder: '.cursor',
    ...NOT_IMPORTING,
    readBy: [],
  },
  windsurfrules: {
    ...FLAT,
    title: 'Windsurf rules (.windsurfrules)',
    role: 'legacy',
    paths: ['**/.windsurfrules'],
    folderFile: '.windsurfrules',
  },
  'windsurf-rules': {
    title: 'Windsurf workspace rules',
    role: 'legacy',
    paths: ['**/.windsurf/rules/**/*.md'],
    frontMatter: ['trigger', 'globs', 'description'],
    scope: 'front-matter',
    folderFile: null,
    dotFolder: '.windsurf',
    ...NOT_IMPORTING,
    readBy: [],
  },
  clinerules: {
    title: 'Cline rules',
    role: 'legacy',
    paths: ['**/.clinerules', '**/.clinerules/**/*.md', '**/.clinerules/**/*.txt'],
    frontMatter: ['paths'],
    scope: 'front-matter',
    // `.clinerules` as a file; the files of a `.clinerules/` folder are named after themselves.
    folderFile: '.clinerules',
    dotFolder: '.clinerules',
    ...NOT_IMPORTING,
    readBy: [],
  },
  roorules: { ...FLAT, title: 'Roo Code rules (.roorules)', role: 'legacy', paths: ['**/.roorules'], folderFile: '.roorules' },
  'conventions-md': {
    title: 'Aider conventions (CONVENTIONS.md)',
    role: 'legacy',
    paths: ['**/CONVENTIONS.md'],
    frontMatter: ['description'],
    scope: 'folder',
    folderFile: 'CONVENTIONS.md',
    dotFolder: null,
    ...NOT_IMPORTING,
    readBy: [],
  },
  'nested-copilot': {
    title: "A sub-project's Copilot instructions",
    role: 'legacy',
    paths: ['*/**/.github/copilot-instructions.md', '*/**/.github/instructions/**/*.instructions.md'],
    frontMatter: ['applyTo', 'description', 'excludeAgent'],
    scope: 'front-matter',
    folderFile: null,
    dotFolder: '.github',
    ...NOT_IMPORTING,
    // Copilot reads `.github/` at the repository's root only: a sub-project's is read when that folder is opened on its own.
    readBy: [],
  },
};

/** The registry's row for a kind as stored or reported (a plan file's `kind` is a string); undefined for `imported` or an unknown id. */
export function formatFacts(kind: string): FormatFacts | undefined {
  return Object.hasOwn(FORMATS_FACTS, kind) ? FORMATS_FACTS[kind as FormatId] : undefined;
}

const placed = (at: Placement, path: string): boolean =>
  (at.path === undefined || path === at.path) &&
  (at.prefix === undefined || path.startsWith(at.prefix)) &&
  (at.suffix === undefined || path.endsWith(at.suffix));

/** Which place a file of this kind and repository path is read from; undefined for a file no surface reads. */
export function readByOf(kind: string, path: string): ReadBy | undefined {
  return formatFacts(kind)?.readBy.find((r) => placed(r.at, path));
}
