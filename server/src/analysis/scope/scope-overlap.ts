import type { Scope } from '../../model/model.js';
import { EXTENSION_FAMILIES, LANGUAGE_WORDS } from '../contradictions/topics.js';

/** The literal folder a glob starts with ("src/api/**\/*.ts" → "src/api"), '' when it starts with a wildcard. */
export function literalPrefix(glob: string): string {
  const wild = glob.search(/[*?[{]/);
  if (wild >= 0) return glob.slice(0, Math.max(0, glob.lastIndexOf('/', wild)));
  // No wildcard: a last segment with a dot is a file name, not a folder.
  const cut = glob.lastIndexOf('/');
  return glob.slice(cut + 1).includes('.') ? glob.slice(0, Math.max(0, cut)) : glob;
}

/** Language families a glob's extensions name, or null when it names none (any file). */
function globFamilies(glob: string): Set<string> | null {
  const m = /\.(?:\{([^}]+)\}|([A-Za-z0-9]+))$/.exec(glob);
  if (!m) return null;
  const exts = (m[1] ?? m[2]!).split(',').map((e) => e.trim().replace(/^\./, '').toLowerCase());
  const fams = new Set(exts.map((e) => EXTENSION_FAMILIES[e] ?? `ext:${e}`));
  return fams;
}

// Analysis asks about the same few globs over and over (every repeated line against every other).
const overlapCache = new Map<string, boolean>();

function globsOverlap(a: string, b: string): boolean {
  const key = a < b ? `${a}\0${b}` : `${b}\0${a}`;
  let known = overlapCache.get(key);
  if (known === undefined) {
    known = computeGlobsOverlap(a, b);
    if (overlapCache.size > 100_000) overlapCache.clear();
    overlapCache.set(key, known);
  }
  return known;
}

function computeGlobsOverlap(a: string, b: string): boolean {
  const pa = literalPrefix(a);
  const pb = literalPrefix(b);
  const prefixesMeet = pa === '' || pb === '' || pa === pb || pa.startsWith(`${pb}/`) || pb.startsWith(`${pa}/`);
  if (!prefixesMeet) return false;
  const fa = globFamilies(a);
  const fb = globFamilies(b);
  return !fa || !fb || [...fa].some((f) => fb.has(f));
}

/** Whether two rules can apply to the same file. Repo-wide and on-request rules meet everything. */
export function scopesOverlap(a: Scope, b: Scope): boolean {
  if (a.kind !== 'globs' || b.kind !== 'globs') return true;
  return a.globs.some((ga) => b.globs.some((gb) => globsOverlap(ga, gb)));
}

/** Language families a rule is about: named in its text, or implied by its file's globs. */
export function languagesOf(text: string, scope: Scope): Set<string> {
  const fams = new Set(LANGUAGE_WORDS.filter((w) => w.pattern.test(text)).map((w) => w.family));
  if (fams.size === 0 && scope.kind === 'globs') {
    for (const g of scope.globs) {
      const f = globFamilies(g);
      if (!f) return new Set();
      f.forEach((x) => fams.add(x));
    }
  }
  return fams;
}

/** Two rules about disjoint sets of languages are about different files. */
export function languagesMeet(a: Set<string>, b: Set<string>): boolean {
  return a.size === 0 || b.size === 0 || [...a].some((x) => b.has(x));
}

/** Up to two distinct members: enough to tell whether a member other than the one asking is there. */
type Two = number[];
const addTo = (two: Two, id: number): void => {
  if (two.length < 2 && two[0] !== id) two.push(id);
};
const other = (two: Two | undefined, id: number): boolean => two !== undefined && two.some((x) => x !== id);

interface Members {
  any: Two;
  anyFamily: Two;
  family: Map<string, Two>;
}
const members = (): Members => ({ any: [], anyFamily: [], family: new Map() });
function addMember(m: Members, id: number, fams: Set<string> | null): void {
  addTo(m.any, id);
  if (!fams) addTo(m.anyFamily, id);
  else
    for (const f of fams) {
      if (!m.family.has(f)) m.family.set(f, []);
      addTo(m.family.get(f)!, id);
    }
}
/** A member other than `id` with a glob of these families (null: any file) among them. */
function meetsIn(m: Members, id: number, fams: Set<string> | null): boolean {
  if (!fams) return other(m.any, id);
  return other(m.anyFamily, id) || [...fams].some((f) => other(m.family.get(f), id));
}

interface PrefixNode {
  children: Map<string, PrefixNode>;
  /** Globs whose literal folder is this one. */
  own: Members;
  /** Globs whose literal folder is this one or below it. */
  below: Members;
}
const prefixNode = (): PrefixNode => ({ children: new Map(), own: members(), below: members() });
const segments = (prefix: string): string[] => (prefix === '' ? [] : prefix.split('/'));

/**
 * For each member of a group (a scope and the file it is in), whether it shares a file or a scope
 * with another member: what comparing every pair with {@link scopesOverlap} answers, through an
 * index instead. Globs are filed by their literal folder (a tree of folders: two globs meet only
 * when one folder holds the other) and by the language families of their extensions.
 */
export function meetingMembers(group: readonly { path: string; scope: Scope }[]): boolean[] {
  const n = group.length;
  if (n < 2) return group.map(() => false);
  // A repository-wide or on-request rule meets everything, so with one of them every member meets another.
  if (group.some((m) => m.scope.kind !== 'globs')) return group.map(() => true);
  const perPath = new Map<string, number>();
  for (const m of group) perPath.set(m.path, (perPath.get(m.path) ?? 0) + 1);
  const root = prefixNode();
  const entries: { id: number; path: string[]; fams: Set<string> | null }[] = [];
  group.forEach((m, id) => {
    for (const g of (m.scope as Extract<Scope, { kind: 'globs' }>).globs) {
      const entry = { id, path: segments(literalPrefix(g)), fams: globFamilies(g) };
      entries.push(entry);
      let node = root;
      addMember(node.below, id, entry.fams);
      for (const seg of entry.path) {
        let next = node.children.get(seg);
        if (!next) node.children.set(seg, (next = prefixNode()));
        node = next;
        addMember(node.below, id, entry.fams);
      }
      addMember(node.own, id, entry.fams);
    }
  });
  const meets = group.map((m) => perPath.get(m.path)! > 1);
  for (const { id, path, fams } of entries) {
    if (meets[id]) continue;
    // Folders above this glob's own (their globs hold it), then everything at or below its own.
    let node: PrefixNode | undefined = root;
    let found = false;
    for (const seg of path) {
      if (meetsIn(node.own, id, fams)) {
        found = true;
        break;
      }
      node = node.children.get(seg);
      if (!node) break;
    }
    if (!found && node) found = meetsIn(node.below, id, fams);
    if (found) meets[id] = true;
  }
  return meets;
}

/** Whether a set holds that path and no other. */
const only = (set: ReadonlySet<string>, p: string): boolean => set.size === 1 && set.has(p);

/**
 * The files whose scope may meet another file's: every file when one applies repository-wide, on
 * request or from the root; otherwise a file whose glob's folder holds, or is held by, another file's
 * (each folder looked up with its ancestors). More than meet (languages aside), never fewer: each pair
 * is checked again; this only spares reading files that stand alone (500 rule files, one per folder).
 */
export function filesThatMayMeet(files: readonly { path: string; scope: Scope }[]): Set<string> {
  const all = new Set(files.map((f) => f.path));
  // Each glob's folder (with its slash), and the files whose globs start there.
  const at = new Map<string, Set<string>>();
  for (const f of files) {
    if (f.scope.kind !== 'globs') return all;
    for (const g of f.scope.globs) {
      const folder = literalPrefix(g);
      if (folder === '') return all;
      const paths = at.get(`${folder}/`) ?? new Set<string>();
      at.set(`${folder}/`, paths.add(f.path));
    }
  }
  // A folder meets its own and its ancestors' (each prefix up to a slash): one lookup each, no sort.
  const out = new Set<string>();
  for (const [folder, paths] of at) {
    for (let slash = folder.indexOf('/'); slash >= 0; slash = folder.indexOf('/', slash + 1)) {
      const above = at.get(folder.slice(0, slash + 1));
      if (!above) continue;
      // A path meets when the other side holds another path than it.
      for (const a of above) if (!only(paths, a)) out.add(a);
      for (const b of paths) if (!only(above, b)) out.add(b);
    }
  }
  return out;
}
