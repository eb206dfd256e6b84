/**
 * SECTION_TOPICS decide which `## ` section a standalone rule of a flat file goes to. A rule goes to
 * a topic only on a confident match: more matching words for that topic than for any other. A rule
 * that matches no topic, or two equally, stays where it is. Kept as data so it is easy to extend;
 * the order is the order new sections are written in.
 */
export interface SectionTopic {
  id: string;
  title: string;
  words: RegExp;
}

/** What `sectionFor` answers when no topic is a confident match: the rule stays in place. */
export const GENERAL_SECTION: SectionTopic = { id: 'general', title: 'General', words: /(?!)/ };

export const SECTION_TOPICS: readonly SectionTopic[] = [
  {
    id: 'setup',
    title: 'Setup',
    words:
      /\b(set ?up|getting started|prerequisites?|environment variables?|\.env|dev ?container|docker[- ]compose|toolchain|clone|bootstrap|local(?:ly)? (?:dev|development|environment))\b/gi,
  },
  {
    id: 'build',
    title: 'Build',
    words:
      /\b(build|builds|building|compile[sd]?|compilation|bundle[rsd]?|bundling|make|makefile|tsc|webpack|vite|esbuild|dist|transpile)\b/gi,
  },
  {
    id: 'dependencies',
    title: 'Dependencies',
    words:
      /\b(dependenc(?:y|ies)|deps|packages?|npm|npx|yarn|pnpm|bun|pip|poetry|uv|cargo|install(?:s|ed|ing)?|lockfile|lock file|upgrade|pin(?:ned)?|licen[cs]es?)\b/gi,
  },
  {
    id: 'testing',
    title: 'Testing',
    words:
      /\b(tests?|testing|tested|jest|vitest|mocha|pytest|unittest|coverage|specs?|e2e|fixtures?|mocks?|mocking|integration tests?|table-driven|assertions?|playwright|cypress|snapshots?)\b/gi,
  },
  {
    id: 'style',
    title: 'Code style',
    words:
      /\b(indent(?:ation)?|tabs|spaces|semicolons?|quotes|format(?:ting|ter|ted)?|prettier|eslint|biome|black|ruff|lint(?:er|ing)?|style|line length|early returns?|readab(?:le|ility))\b/gi,
  },
  {
    id: 'naming',
    title: 'Naming',
    words: /\b(naming|names?|named|camelCase|snake_case|PascalCase|kebab-case|UPPER_CASE|prefix(?:ed)?|suffix(?:ed)?)\b/gi,
  },
  {
    id: 'errors',
    title: 'Error handling',
    words: /\b(errors?|exceptions?|throw(?:s|n)?|catch|try\/catch|panic|retr(?:y|ies)|fail(?:ure|s)?|wrapped errors?)\b/gi,
  },
  { id: 'logging', title: 'Logging', words: /\b(log|logs|logged|logging|logger|console\.log|trace|tracing|telemetry|metrics)\b/gi },
  {
    id: 'security',
    title: 'Security',
    words:
      /\b(secrets?|credentials?|api keys?|api tokens?|tokens?|security|secure|passwords?|sanitiz(?:e|ation)|injection|xss|csrf|validat(?:e|ion)|user input|auth(?:entication|orization)?|permissions?|card numbers?|pii|personal data|encrypt(?:ion|ed)?)\b/gi,
  },
  {
    id: 'database',
    title: 'Database',
    words:
      /\b(databases?|db|sql|queries|query|postgres(?:ql)?|mysql|sqlite|mongo(?:db)?|redis|migrations?|schemas?|tables?|orm|prisma|drizzle|eloquent|transactions?|indexes)\b/gi,
  },
  {
    id: 'api',
    title: 'API',
    words:
      /\b(api(?! (?:keys?|tokens?))|apis|endpoints?|routes?|rest|graphql|grpc|http|status codes?|(?<!pull )requests?|responses?|openapi)\b/gi,
  },
  {
    id: 'docs',
    title: 'Documentation',
    words: /\b(docs?|documentation|document|readme|jsdoc|docstrings?|doc comments?|changelog|comments?)\b/gi,
  },
  {
    id: 'git',
    title: 'Git and pull requests',
    words: /\b(commits?|committing|branch(?:es)?|pull requests?|PRs?|merge|rebase|git|push(?:ing)?|code review)\b/gi,
  },
  {
    id: 'ci',
    title: 'CI and deployment',
    words:
      /\b(ci|cd|pipelines?|deploy(?:s|ed|ing|ment)?|release[sd]?|github actions|workflows? files?|staging|production|kubernetes|helm)\b/gi,
  },
  {
    id: 'performance',
    title: 'Performance',
    words: /\b(performance|fast(?:er)?|slow|latency|memory|cach(?:e|es|ing)|optimi[sz](?:e|ation)|n\+1|profil(?:e|ing)|lazy)\b/gi,
  },
  {
    id: 'structure',
    title: 'Project structure',
    words:
      /\b(project structure|folder structure|directory structure|directories|layout|monorepo|lives in|live in|src\/\S*|packages\/\S*|file structure)\b/gi,
  },
  { id: 'workflow', title: 'Workflow', words: /\b(workflow|plan(?:ning)?|steps?|before you (?:start|begin)|issues?|tickets?)\b/gi },
];
