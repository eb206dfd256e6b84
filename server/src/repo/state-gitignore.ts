import { readFile, writeFile } from './safe-fs.js';
import { STATE_GITIGNORE, stateGitignoreText } from './state-paths.js';

/**
 * `.copilot-state/.gitignore` as an earlier version wrote it lacks the lines for what this version
 * may leave beside the state (plan.diff, `*.not-written-here-*`, the key outside git, the folder of
 * used answers): a habitual `git add -A` would offer them. The tool's own file (its first line says
 * who wrote it) gets the missing lines added at its end; a file a person wrote, or none, is left as
 * it is (docs/state.md).
 */
const OWN = '# Written by copilot-onboard';
const done = new Set<string>();

export async function updateStateGitignore(root: string): Promise<string[]> {
  if (done.has(root)) return [];
  done.add(root);
  const bytes = await readFile(root, STATE_GITIGNORE).catch(() => null);
  if (bytes === null) return [];
  const text = bytes.toString('utf8');
  if (!text.startsWith(OWN)) return [];
  const have = new Set(text.split('\n').map((l) => l.trim()));
  const missing = stateGitignoreText()
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#') && !have.has(l));
  if (missing.length === 0) return [];
  await writeFile(
    root,
    STATE_GITIGNORE,
    `${text.endsWith('\n') ? text : `${text}\n`}# Added by a later copilot-onboard: what it may leave here that git should not offer.\n${missing.join('\n')}\n`,
  );
  return missing;
}
