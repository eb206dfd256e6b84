import type { InstructionDoc } from '../../model/model.js';
import { linkedPath, movablePaths } from '../../model/links.js';
import type { RepoPaths } from '../../repo/repo-path.js';
import { resolveTarget } from './import-targets.js';

/**
 * The repository paths that the relative links (and `@path` and `./` code-span paths) of the instruction files lead to and that are there
 * (a file or a folder, inside the repository, no link on the way leading out). A plan rewrites a
 * moved link only when it resolved where it was written (planning/render/links.ts); a link that led
 * nowhere is written as it was, and named. One `realpath` per path named, nothing read.
 */
export async function resolvingLinks(paths: RepoPaths, docs: InstructionDoc[]): Promise<Set<string>> {
  const named = new Set<string>();
  for (const doc of docs)
    for (const unit of doc.units) {
      if (unit.kind === 'code' || unit.kind === 'frontmatter') continue;
      for (const line of unit.lines)
        for (const d of movablePaths(line)) {
          const to = linkedPath(doc.path, line.slice(d.start, d.end));
          if (to !== null) named.add(to);
        }
    }
  const out = new Set<string>();
  if (named.size === 0) return out;
  const realRoot = await paths.realRoot();
  for (const to of named) {
    let at: ReturnType<typeof resolveTarget>;
    try {
      at = resolveTarget(paths, realRoot, to);
    } catch {
      continue; // a name the repository's path rules refuse
    }
    if (at !== 'missing' && at !== 'outside' && !inGitOrState(at.real)) out.add(to);
  }
  return out;
}

/** git's own folder and the tool's state are no place a rule leads a reader to. */
const inGitOrState = (rel: string): boolean => rel.split('/').some((seg) => seg === '.git' || seg === '.copilot-state');
