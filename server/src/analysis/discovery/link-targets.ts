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
  // Indexed loops over every line: a for-of step allocates in code V8 has not optimised yet (issue 38).
  for (const doc of docs)
    for (let u = 0; u < doc.units.length; u++) {
      const unit = doc.units[u]!;
      if (unit.kind === 'code' || unit.kind === 'frontmatter') continue;
      for (let i = 0; i < unit.lines.length; i++) {
        const line = unit.lines[i]!;
        const paths = movablePaths(line);
        for (let k = 0; k < paths.length; k++) {
          const to = linkedPath(doc.path, line.slice(paths[k]!.start, paths[k]!.end));
          if (to !== null) named.add(to);
        }
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
