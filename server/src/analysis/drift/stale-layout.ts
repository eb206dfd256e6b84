/**
 * A stale layout (issue 29, stale facts): a structure tree puts a folder under one root, while rules
 * whose scopes meet it name the same folder under a root the tree never mentions ("| `fastmcp_slim/
 * fastmcp/` | Library source code" with "`├─tools/`" under it, vs "Tools (`src/tools/`)"). Worth a
 * second look: the tree or the rule is out of date, and only the repository can say which.
 */
import type { Scope, Unit } from '../../model/model.js';
import { meet, problem, type Drifted, type Line } from './drift-lines.js';

/** A tree's entry: its box-drawing prefix (empty for a root) and the name or path it lists. */
const ENTRY = /^\s*(?:\|\s*)?`?([\u2502\u251c\u2514\u2500\s|-]*?)([\w.@-]+(?:\/[\w.@-]+)*\/?)`?(?:\s|\||$)/;
const BRANCH = /[\u251c\u2514]/;
/** A folder path of two parts or more in a rule, ending in a slash: `src/tools/`, (src/tools/). */
const FOLDER_PATH = /(?:^|[\s(`])((?:[\w@-][\w.@-]*\/){2,})(?=[\s)`,.;:]|$)/g;

/**
 * The folder a file's paths are read from: a nested AGENTS.md or CLAUDE.md names paths from its own
 * folder; a file under a dot folder (.cursor/rules, .github, .claude) and a root file from the root.
 */
const baseOf = (path: string) => (/(?:^|\/)\./.test(path) ? '' : path.split('/').slice(0, -1).join('/'));

interface Tree {
  root: Line;
  /** Every name in the tree, roots' parts included. */
  names: Set<string>;
  /** Folder name (no slash) -> the line that lists it under the root. */
  children: Map<string, Line>;
}

const lineAt = (u: Unit, i: number, scope: Scope): Line => ({
  path: u.path,
  line: u.line + i,
  text: u.lines[i]!,
  scope,
  section: '',
  unit: u.line,
});

/** The structure trees of a unit (a table or a code block): a root folder and the entries drawn under it. */
function treesOf(u: Unit, scope: Scope): Tree[] {
  const out: Tree[] = [];
  let current: Tree | null = null;
  u.lines.forEach((text, i) => {
    const m = ENTRY.exec(text);
    if (!m) return;
    const [, prefix, name] = m as unknown as [string, string, string];
    const parts = name.split('/').filter((p) => p !== '');
    if (!BRANCH.test(prefix)) {
      current = name.endsWith('/') ? { root: lineAt(u, i, scope), names: new Set(parts), children: new Map() } : null;
      if (current) out.push(current);
      return;
    }
    if (current === null) return;
    for (const p of parts) current.names.add(p);
    if (name.endsWith('/')) current.children.set(parts[parts.length - 1]!, lineAt(u, i, scope));
  });
  return out.filter((t) => t.children.size > 0);
}

/** Folder paths named in rules (prose, list items and tables; not code blocks). */
function pathsOf(u: Unit, scope: Scope): { path: string; at: Line }[] {
  if (u.kind === 'code' || u.kind === 'heading' || u.kind === 'frontmatter') return [];
  return u.lines.flatMap((text, i) => [...text.matchAll(FOLDER_PATH)].map((m) => ({ path: m[1]!, at: lineAt(u, i, scope) })));
}

export function staleLayouts(units: Unit[], scopeOf: (u: Unit) => Scope): Drifted[] {
  // Units drawn as trees first: most repositories draw none, and nothing more is read.
  const drawn = units.filter((u) => u.lines.some((l) => l.includes('\u251c') || l.includes('\u2514')));
  const trees = drawn.flatMap((u) => treesOf(u, scopeOf(u)));
  if (trees.length === 0) return [];
  const slashed = units.filter((u) => u.lines.some((l) => l.includes('/')));
  // Per tree and the root part the rules use instead: the rule lines, and the tree lines they disagree with.
  const found = new Map<string, { tree: Tree; first: string; rules: Line[]; at: Set<string>; listed: Line[] }>();
  for (const u of slashed) {
    for (const { path, at } of pathsOf(u, scopeOf(u))) {
      const parts = path.split('/').filter((p) => p !== '');
      const [first, leaf] = [parts[0]!, parts[parts.length - 1]!];
      for (const [i, t] of trees.entries()) {
        const listed = t.children.get(leaf);
        if (
          !listed ||
          t.names.has(first) ||
          baseOf(t.root.path) !== baseOf(at.path) ||
          (t.root.path === at.path && t.root.unit === at.unit) ||
          !meet(t.root, at)
        )
          continue;
        const key = `${i}\0${first}`;
        const f = found.get(key) ?? { tree: t, first, rules: [], at: new Set<string>(), listed: [] };
        if (!f.at.has(`${at.path}:${at.line}`)) {
          f.at.add(`${at.path}:${at.line}`);
          f.rules.push(at);
        }
        if (!f.listed.includes(listed)) f.listed.push(listed);
        found.set(key, f);
      }
    }
  }
  const out: Drifted[] = [];
  for (const f of found.values()) {
    const root = f.tree.root.text.match(ENTRY)?.[2] ?? '';
    out.push(
      problem(
        'stale-path',
        `where ${f.listed.map((l) => `${l.text.match(ENTRY)?.[2] ?? ''}`).join(', ')} live`,
        `the structure puts them under \`${root}\`, rules under \`${f.first}/\``,
        [[f.tree.root, ...f.listed], f.rules],
      ),
    );
  }
  return out;
}
