/**
 * The topic tables, kept as data so they are easy to extend.
 *
 * CLAIM_TOPICS describe settings that a repository should state only one way. Two rules that claim
 * different options of one topic contradict each other.
 */
import { MUST_BEFORE } from './verb-polarity.js';

export interface ClaimOption {
  value: string;
  pattern: RegExp;
  /** When set, the line must also match this for the option to count ("tabs" only next to indentation words). */
  context?: RegExp;
}

export interface ClaimTopic {
  id: string;
  title: string;
  /** A line must match this to be read for the topic at all. */
  context?: RegExp;
  options: ClaimOption[];
  /**
   * When true, a negation right before an option ("never use npm", "pnpm instead of npm") makes the
   * claim negative. Topics whose options are themselves polar (semicolons: always / never) set false.
   */
  negatable: boolean;
  /**
   * For options that lines mention far more often than they prescribe (tools run in commands, named
   * as registries): the option is a claim only right after words that choose it (`positive`, or
   * `positiveAfter` right after it) or rule it out (`negative`). See claims.ts.
   */
  choice?: { positive: RegExp; positiveAfter?: RegExp; negative: RegExp };
}

/** Right before an option, words that rule the tool itself out. */
const RULED_OUT =
  /\b(?:never|don'?t|do not|must not|should not|shouldn'?t|avoid|no longer)(?:\s+(?:use|using|run|call|install with))?\s*$/i;

/** Right before a tool, words that choose it ("use uv", "lint with ESLint", "only pytest"). */
const TOOL_CHOSEN =
  /(?<![\w-])(?:use|uses|using|prefer|prefers|require|requires|run|runs|with|only|stick (?:to|with)|switch(?:ed)? to)\s+(?:only\s+)?$/i;

/**
 * Right before a style value, what makes it a choice: a choosing word ("use single quotes"), or nothing
 * of the clause before it: the value named on its own, first in a line, after a label or another item
 * of a style list ("**Strings**: double quotes", "tabs, double quotes, trailing commas"). After any other
 * word it is what that word acts on ("escape the single quotes", "enclosed in double quotes"): no style.
 */
const STYLE_CHOSEN = new RegExp(
  `${TOOL_CHOSEN.source}|${MUST_BEFORE.source}(?:\\s+be)?\\s+$|(?:^|[:;,\u2013\u2014]|^\\s*(?:[-*+>]|\\d+[.)]))\\s*$`,
  'i',
);

/**
 * One case-insensitive test for any of `patterns` (their own flags aside). When every one starts at a
 * word boundary, the boundary is tested once, before the alternation: `\b(?:a|b)` finds what
 * `\ba|\bb` finds, and V8 runs it faster over a line that holds none of them (most lines).
 */
export function anyOf(patterns: readonly RegExp[]): RegExp {
  const sources = patterns.map((p) => p.source);
  const bounded = sources.every((s) => s.startsWith('\\b'));
  return new RegExp(bounded ? `\\b(?:${sources.map((s) => s.slice(2)).join('|')})` : sources.join('|'), 'i');
}

export const CLAIM_TOPICS: readonly ClaimTopic[] = [
  {
    id: 'package-manager',
    title: 'package manager',
    negatable: true,
    options: [
      { value: 'npm', pattern: /\bnpm\b/gi },
      { value: 'yarn', pattern: /\byarn\b/gi },
      { value: 'pnpm', pattern: /\bpnpm\b/gi },
      { value: 'bun', pattern: /\bbun\b/gi },
    ],
    choice: {
      positive:
        /(?:(?<![\w-])(?:use|uses|using|prefer|prefers|require|requires|run|runs|execute|only|stick (?:to|with)|switch(?:ed)? to)\s+(?:only\s+)?|\bpackage manager(?:\s+is)?:?\s*)$/i,
      positiveAfter: /^\S*\s+(?:is|as)\s+(?:the|our|its)\s+(?:only\s+)?package manager/i,
      negative: RULED_OUT,
    },
  },
  {
    id: 'indentation',
    title: 'indentation',
    context: /\b(indent(?:ation|ed)?|tabs|spaces)\b/i,
    negatable: true,
    options: [
      { value: '2 spaces', pattern: /\b(?:2|two)[- ]spaces?\b/gi },
      { value: '4 spaces', pattern: /\b(?:4|four)[- ]spaces?\b/gi },
      { value: 'tabs', pattern: /\btabs\b/gi, context: /\b(?:indent\w*|spaces|whitespace)\b/i },
    ],
  },
  {
    id: 'semicolons',
    title: 'semicolons',
    negatable: false,
    options: [
      { value: 'no semicolons', pattern: /\b(?:no|never|omit|without|avoid|don'?t use|do not use)\b[^.;]{0,30}\bsemicolons?\b/gi },
      { value: 'semicolons', pattern: /\b(?:always|use|require|with)\b(?: \w+){0,2} semicolons?\b/gi },
    ],
  },
  {
    id: 'quotes',
    title: 'quotes',
    negatable: true,
    options: [
      { value: 'single quotes', pattern: /\bsingle[- ]quot(?:es?|ed)\b/gi },
      { value: 'double quotes', pattern: /\bdouble[- ]quot(?:es?|ed)\b/gi },
    ],
    // Lines name quotes far more often than they choose a style: escaping them, wrapping an argument in them.
    choice: { positive: STYLE_CHOSEN, negative: RULED_OUT },
  },
  {
    id: 'test-framework',
    title: 'test framework',
    context: /\btest|\b(?:jest|vitest)\b/i,
    negatable: true,
    options: [
      { value: 'Jest', pattern: /\bjest\b/gi },
      { value: 'Vitest', pattern: /\bvitest\b/gi },
      { value: 'Mocha', pattern: /\bmocha\b/gi },
      { value: 'Jasmine', pattern: /\bjasmine\b/gi },
      { value: 'AVA', pattern: /\bava\b/g },
      { value: 'node:test', pattern: /\bnode:test\b|\bnode --test\b/gi },
    ],
    choice: {
      positive: /\b(?:use|uses|using|prefer|prefers|require|requires|with|under|written in)\s+(?:only\s+)?$/i,
      positiveAfter: /^\S*\s+(?:is|as)\s+(?:the|our)\s+(?:only\s+)?test(?:ing)? (?:framework|runner)/i,
      negative: RULED_OUT,
    },
  },
  // Python's package managers, formatters, linters and test frameworks, JavaScript's formatters and
  // linters: one of each per repository. Chosen by the same words as above, and "with" ("Lint with ESLint").
  {
    id: 'python-package-manager',
    title: 'Python package manager',
    negatable: true,
    options: [
      { value: 'pip', pattern: /\bpip3?\b/gi },
      { value: 'uv', pattern: /\buv\b/g },
      { value: 'Poetry', pattern: /\bpoetry\b/gi },
      { value: 'Pipenv', pattern: /\bpipenv\b/gi },
    ],
    choice: { positive: TOOL_CHOSEN, negative: RULED_OUT },
  },
  {
    id: 'python-test-framework',
    title: 'Python test framework',
    context: /\btest/i,
    negatable: true,
    options: [
      { value: 'pytest', pattern: /\bpytest\b/gi },
      { value: 'unittest', pattern: /\bunittest\b/gi },
      { value: 'nose', pattern: /\bnose2?\b/gi },
    ],
    choice: { positive: TOOL_CHOSEN, negative: RULED_OUT },
  },
  {
    id: 'js-formatter',
    title: 'formatter',
    context: /\bformat/i,
    negatable: true,
    options: [
      { value: 'Prettier', pattern: /\bprettier\b/gi },
      { value: 'Biome', pattern: /\bbiome\b/gi },
      { value: 'dprint', pattern: /\bdprint\b/gi },
    ],
    choice: { positive: TOOL_CHOSEN, negative: RULED_OUT },
  },
  {
    id: 'python-formatter',
    title: 'Python formatter',
    context: /\bformat/i,
    negatable: true,
    options: [
      { value: 'Black', pattern: /\bblack\b/gi },
      { value: 'YAPF', pattern: /\byapf\b/gi },
      { value: 'autopep8', pattern: /\bautopep8\b/gi },
    ],
    choice: { positive: TOOL_CHOSEN, negative: RULED_OUT },
  },
  {
    id: 'js-linter',
    title: 'linter',
    context: /\blint/i,
    negatable: true,
    options: [
      { value: 'ESLint', pattern: /\beslint\b/gi },
      { value: 'Biome', pattern: /\bbiome\b/gi },
      { value: 'oxlint', pattern: /\boxlint\b/gi },
    ],
    choice: { positive: TOOL_CHOSEN, negative: RULED_OUT },
  },
  // A monorepo's task runner: "always run tasks through `nx`" against `pnpm turbo run build`.
  {
    id: 'task-runner',
    title: 'monorepo task runner',
    negatable: true,
    options: [
      { value: 'Nx', pattern: /\bnx\b/gi },
      { value: 'Turborepo', pattern: /\bturbo(?:repo)?\b/gi },
    ],
    choice: {
      positive: /(?<![\w-])(?:use|uses|using|through|via|with|run|runs|managed by|only)\s+(?:only\s+)?$/i,
      positiveAfter: /^\S*\s+(?:for|handles)\s+(?:the\s+)?(?:monorepo\s+)?task/i,
      negative: RULED_OUT,
    },
  },
];

/** Languages whose stated versions must agree: "Node 18" against "Node.js 20" contradicts. */
export const VERSIONED_LANGUAGES: readonly { name: string; pattern: RegExp }[] = [
  { name: 'Node.js', pattern: /\bnode(?:\.js|js)?\s+(?:version\s+)?v?(\d+(?:\.\d+){0,2})\b/gi },
  { name: 'Python', pattern: /\bpython\s*(?:version\s+)?(\d+(?:\.\d+){0,2})\b/gi },
  { name: 'TypeScript', pattern: /\btypescript\s+(?:version\s+)?v?(\d+(?:\.\d+){0,2})\b/gi },
  { name: 'Java', pattern: /\bjava\s+(?:version\s+)?(\d+(?:\.\d+){0,2})\b/gi },
  { name: 'Go', pattern: /\bgo(?:lang)?\s+(\d+\.\d+(?:\.\d+)?)\b/gi },
  { name: 'Ruby', pattern: /\bruby\s+(\d+(?:\.\d+){0,2})\b/gi },
];

/** Words that turn the option right after them into a prohibition. */
export const NEGATION_BEFORE = /\b(?:never|don'?t|do not|not|avoid|no|instead of|rather than|nor|without)\b[^.;,]{0,25}$/i;

/** "pnpm, not npm", "pnpm instead of npm": rules the second out only when the clause chose another option. */
export const CONTRAST_BEFORE = /\b(?:not|instead of|rather than|nor|over)(?:\s+(?:use|using))?\s*$/i;

/**
 * Any capitalised name followed by a dotted version ("Remix 2.1", "Next.js 14.2") or a major version
 * written with its "v" ("Tailwind CSS v4"; a bare "Engine 2" numbers things) is a version claim
 * (group 2, or 3 for a major); two different versions of one name contradict. Words that number
 * things are not names.
 */
export const GENERIC_VERSION = /\b([A-Z][A-Za-z0-9+-]*(?:\.[a-z]+)?)\s+(?:v?(\d+\.\d+(?:\.\d+)?)|v(\d+))\b/g;
export const NOT_A_PRODUCT = new Set([
  'section',
  'step',
  'version',
  'chapter',
  'figure',
  'table',
  'phase',
  'part',
  'item',
  'rule',
  'see',
  'page',
  'line',
  'and',
  'or',
  'the',
  'v',
  'python',
  'node',
  'nodejs',
  'node.js',
  'typescript',
  'java',
  'go',
  'golang',
  'ruby',
]);

/**
 * Capitalised words that start a sentence rather than a product name: in "Use Python 3.11" the
 * version is Python's, in "Pest PHP 3.8" it is Pest PHP's.
 */
export const NOT_A_NAME_PART = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'our',
  'we',
  'you',
  'it',
  'all',
  'any',
  'and',
  'or',
  'with',
  'on',
  'in',
  'for',
  'to',
  'at',
  'by',
  'from',
  'of',
  'is',
  'are',
  'use',
  'uses',
  'using',
  'target',
  'targets',
  'targeting',
  'require',
  'requires',
  'required',
  'run',
  'runs',
  'running',
  'install',
  'installs',
  'upgrade',
  'support',
  'supports',
  'supported',
  'pin',
  'pinned',
  'build',
  'built',
  'always',
  'must',
  'only',
  'prefer',
  'needs',
  'need',
  'latest',
  'minimum',
  'min',
  'see',
  'note',
  'version',
]);

/** Right after a version: a range or list of versions follows ("3.10 through 3.13", "18, 20 or 22"). */
export const VERSION_LIST_AFTER =
  /^\s*(?:-|\u2013|\u2014|\.\.|,|\/|\bto\b|\bthrough\b|\bthru\b|\bor\b|\band\b)\s*(?:v|([A-Z][\w.]*)\s+)?\d/i;
/** Right after a version: it is a minimum ("3.10+", "3.10 or later"). */
export const VERSION_MINIMUM_AFTER = /^(?:\+|\s+or\s+(?:later|newer|higher|above|up)\b|\s+and\s+(?:later|newer|higher|above|up)\b)/i;
/** Right before the name of a version: it is a minimum ("at least Node 18", ">= 3.10"). */
export const VERSION_MINIMUM_BEFORE = /(?:>=|\u2265|\bat least|\bminimum(?: of)?|\bmin\.?)\s*$/i;

/** "Always X" against "Never X": modal words and their polarity. */
export const MODALS: readonly { pattern: RegExp; positive: boolean }[] = [
  { pattern: /\b(?:never|must not|mustn't|do not|don't|should not|shouldn't|avoid)\s+/gi, positive: false },
  { pattern: /\b(?:always|must)\s+/gi, positive: true },
];

/**
 * Language words: a rule that names only CSS and one that names only JavaScript are about different
 * files and do not contradict. Words map to a family.
 */
export const LANGUAGE_WORDS: readonly { family: string; pattern: RegExp }[] = [
  { family: 'js', pattern: /\b(?:javascript|typescript|js|ts|jsx|tsx|node(?:\.js)?)\b/i },
  { family: 'css', pattern: /\b(?:css|scss|sass|less|stylesheets?)\b/i },
  { family: 'html', pattern: /\b(?:html|templates?)\b/i },
  { family: 'python', pattern: /\b(?:python|py)\b/i },
  { family: 'go', pattern: /\b(?:golang|go files)\b/i },
  { family: 'rust', pattern: /\brust\b/i },
  { family: 'java', pattern: /\b(?:java|kotlin)\b/i },
  { family: 'yaml', pattern: /\b(?:yaml|yml)\b/i },
  { family: 'markdown', pattern: /\b(?:markdown|md files)\b/i },
  { family: 'shell', pattern: /\b(?:bash|shell scripts?|sh files)\b/i },
  { family: 'sql', pattern: /\bsql\b/i },
];

/** File extensions of a glob, mapped to the same families. */
export const EXTENSION_FAMILIES: Record<string, string> = {
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  ts: 'js',
  tsx: 'js',
  jsx: 'js',
  mts: 'js',
  cts: 'js',
  css: 'css',
  scss: 'css',
  sass: 'css',
  less: 'css',
  html: 'html',
  htm: 'html',
  vue: 'html',
  svelte: 'html',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'java',
  yml: 'yaml',
  yaml: 'yaml',
  md: 'markdown',
  mdx: 'markdown',
  sh: 'shell',
  bash: 'shell',
  sql: 'sql',
};
