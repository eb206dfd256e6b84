/**
 * SECTION_TOPICS decide which `## ` section a line of an unstructured file goes to. A line that
 * matches several topics goes to the one with the most matching words; a tie goes to the topic
 * listed first. Kept as data so it is easy to extend.
 */
export interface SectionTopic {
  id: string;
  title: string;
  words: RegExp;
}

export const GENERAL_SECTION: SectionTopic = { id: 'general', title: 'General', words: /(?!)/ };

export const SECTION_TOPICS: readonly SectionTopic[] = [
  { id: 'testing', title: 'Testing', words: /\b(tests?|testing|tested|jest|vitest|mocha|pytest|unittest|coverage|specs?|e2e|fixtures?|mocks?)\b/gi },
  { id: 'build', title: 'Build and dependencies', words: /\b(npm|npx|yarn|pnpm|bun|pip|poetry|uv|cargo|install|dependenc(?:y|ies)|package manager|build|builds|compile|bundle|lockfile|scripts?)\b/gi },
  { id: 'style', title: 'Code style', words: /\b(indent(?:ation)?|tabs|spaces|semicolons?|quotes?|naming|camelCase|snake_case|PascalCase|kebab-case|format(?:ting|ter)?|prettier|eslint|lint(?:er|ing)?|style|line length|comments?)\b/gi },
  { id: 'language', title: 'Languages and versions', words: /\b(typescript|javascript|python|node(?:\.js)?|golang|rust|java|kotlin|ruby|php|version|types?|typed|strict)\b/gi },
  { id: 'git', title: 'Git and pull requests', words: /\b(commits?|branch(?:es)?|pull requests?|PRs?|merge|rebase|changelog|git)\b/gi },
  { id: 'docs', title: 'Documentation', words: /\b(docs?|documentation|readme|jsdoc|docstrings?)\b/gi },
  { id: 'security', title: 'Security', words: /\b(secrets?|credentials?|api keys?|tokens?|security|passwords?|sanitize|injection)\b/gi },
];
