import path from 'node:path';
import { linkedPath, replacePaths, splitDestination } from '../../model/links.js';
import type { LineRef, Rendered } from './rendered.js';

/** A relative link of moved text that led nowhere where it was written: kept as it was, and named in the notes. */
export interface UnresolvedLink {
  at: LineRef;
  dest: string;
  target: string;
  /** A `./` or `../` path that is not there, written as it leads to the same repository path from `target`. */
  written?: string;
}

/** What a link rewrite needs to know of the sources. */
export interface LinkFacts {
  /** The line is fenced code or front matter in its source: no link in it. */
  inCode: (at: LineRef) => boolean;
  /** A repository path that is there (analysis/discovery/link-targets.ts). */
  resolves: (repoPath: string) => boolean;
}

/**
 * `r` with every relative link of a line moved from another folder rewritten to lead to the same
 * repository path from `target` (`tools/release/README.md` written in a root file reads
 * `../tools/release/README.md` in `.github/copilot-instructions.md`). The anchor, query and title
 * stay as written, and so do a `./` start and a trailing `/`. A link that did not resolve where it
 * was written is returned to be named: left as it was, or, when it starts `./` or `../` (a path from
 * its folder, whether or not the repository holds it), rewritten all the same. One that climbs out of
 * the repository is left as it was. An `@path` that is there becomes a Markdown link named by its repository
 * path (`@docs/a.md` reads `[docs/a.md](../docs/a.md)`): Copilot reads `@` as text.
 */
export function relinked(r: Rendered, target: string, facts: LinkFacts): { rendered: Rendered; unresolved: UnresolvedLink[] } {
  const unresolved: UnresolvedLink[] = [];
  const toFolder = path.posix.dirname(target);
  const lines = r.lines.map((line, i) => {
    const at = r.refs[i];
    if (!at || path.posix.dirname(at.path) === toFolder || facts.inCode(at)) return line;
    return replacePaths(line, (d, dest) => {
      const to = linkedPath(at.path, dest);
      const there = to !== null && facts.resolves(to);
      // A path written from its folder (`./`, `../`) is one whether or not it is there: as written, it
      // would now name another folder's file. An `@name` that names nothing is a mention (`@v2`).
      const fromFolder = to !== null && /^\.{1,2}\//.test(dest);
      if (!there && d.explicit)
        unresolved.push({ at, dest, target, ...(fromFolder ? { written: movedDestination(dest, to, toFolder) } : {}) });
      if (!there && !fromFolder) return null;
      const moved = movedDestination(dest, to!, toFolder);
      // An `@` import is Claude's and Gemini's: Copilot follows a Markdown link to the file instead.
      return d.form === 'at' && there ? { text: `[${to}](${moved})`, atSign: true } : { text: moved, atSign: false };
    });
  });
  return { rendered: { lines, refs: r.refs }, unresolved };
}

/** `dest`, which names `to`, as written in `toFolder`: its anchor or query, `./` start and trailing `/` kept. */
function movedDestination(dest: string, to: string, toFolder: string): string {
  const { path: raw, rest } = splitDestination(dest);
  // The names after the last `..` stay as written (percent-escapes and all): only the folders before them change.
  const segs = raw.split('/').filter((s) => s !== '' && s !== '.');
  const names = segs.slice(segs.lastIndexOf('..') + 1);
  const toSegs = to.split('/');
  const head = toSegs.slice(0, toSegs.length - names.length).join('/');
  // Without escapes to keep, the shortest path: never out of a folder and back in (`.github/` from `.github/instructions/`).
  let rel =
    (raw.includes('%')
      ? [path.posix.relative(toFolder, head), ...names].filter((s) => s !== '').join('/')
      : path.posix.relative(toFolder, to)) || '.';
  if (raw.startsWith('./') && !rel.startsWith('../') && rel !== '.') rel = `./${rel}`;
  if (raw.endsWith('/') && !rel.endsWith('/')) rel += '/';
  return rel + rest;
}
