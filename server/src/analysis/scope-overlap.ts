import type { Scope } from '../model/model.js';
import { EXTENSION_FAMILIES, LANGUAGE_WORDS } from './topics.js';

/** The literal folder a glob starts with ("src/api/**\/*.ts" → "src/api"), '' when it starts with a wildcard. */
function literalPrefix(glob: string): string {
  const parts: string[] = [];
  for (const seg of glob.split('/')) {
    if (/[*?[{]/.test(seg)) break;
    parts.push(seg);
  }
  // A last literal segment with a dot is a file name, not a folder.
  if (parts.length > 0 && parts.length === glob.split('/').length && /\./.test(parts[parts.length - 1]!)) parts.pop();
  return parts.join('/');
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
