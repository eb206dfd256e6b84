import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { SimpleGit } from 'simple-git';

/**
 * The one place git is started. A folder brings its own git configuration (an archive's
 * `.git/config`, a file an `include.path` names in the work tree) and with it programs git runs
 * by itself: fsmonitor on every index read, hooks when the index or a ref is written, clean filters
 * when status hashes a file, diff drivers, pagers, editors, signing and credential programs,
 * transports. Every git call here sets each of them to do nothing with `-c` (the command line beats
 * every config file), drops the ambient `GIT_*` variables (as simple-git does) and takes no optional
 * lock. docs/security.md, "A folder's git configuration runs nothing".
 */

/** Settings that name a program git would run, each set so that none runs. */
export const NEUTRAL_CONFIG: readonly string[] = [
  'core.fsmonitor=false',
  // No hook of any kind: the folder's `.git/hooks/` and any hooksPath (post-index-change, reference-transaction, post-checkout, prepare-commit-msg, post-commit, pre-auto-gc).
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.editor=:',
  'sequence.editor=:',
  'core.askPass=',
  'credential.helper=',
  'core.sshCommand=',
  'diff.external=',
  // Signing runs gpg.program (or ssh-keygen and gpg.ssh.defaultKeyCommand); log.showSignature runs it to verify.
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'log.showSignature=false',
  // An automatic gc after a commit runs more git (and pre-auto-gc).
  'gc.auto=0',
  'maintenance.auto=false',
  // No transport at all (ext::, ssh, a proxy command): the tool fetches nothing.
  'protocol.allow=never',
  'submodule.recurse=false',
];

/** simple-git refuses these keys on `-c` whatever the value; ours only ever turn them off. */
const UNSAFE_ALLOWED = {
  allowUnsafeFsMonitor: true,
  allowUnsafeHooksPath: true,
  allowUnsafePager: true,
  allowUnsafeEditor: true,
  allowUnsafeAskPass: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeSshCommand: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeDiffTextConv: true,
  allowUnsafeFilter: true,
  allowUnsafeMergeDriver: true,
  allowUnsafeGpgProgram: true,
  allowUnsafeProtocolOverride: true,
} as const;

/** Per-driver keys that name a program: `filter.<name>.clean` and its kin, as found in the folder's config. */
const DRIVER_KEY = /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|command|textconv|driver)$/i;

/** `-c` values that turn off every driver the configuration names (a filter that is also `required` would fail instead: not required). */
export function neutralDrivers(configKeys: readonly string[]): string[] {
  const out: string[] = [];
  for (const key of configKeys) {
    const m = DRIVER_KEY.exec(key);
    // A name with `=` or a line break cannot be given on `-c` (git splits at the first `=`); git itself refuses such a key in a file.
    if (!m || /[=\n]/.test(m[2]!)) continue;
    out.push(`${key}=`);
    if (m[1]!.toLowerCase() === 'filter') out.push(`filter.${m[2]}.required=false`);
  }
  return out;
}

/**
 * The environment of every git process: the person's, less the `GIT_*` variables (GIT_DIR,
 * GIT_CONFIG_*, GIT_EXTERNAL_DIFF: the repository is the folder asked about, its configuration as
 * neutralised here), the editor, pager, askpass and PREFIX (what simple-git guards); git takes no optional lock (a read-only step writes
 * no index) and never prompts.
 */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(git_|editor$|visual$|pager$|prefix$|ssh_askpass$)/i.test(k)) env[k] = v;
  return { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
}

const ALLOWED_ENV = ['GIT_OPTIONAL_LOCKS', 'GIT_TERMINAL_PROMPT'];

/** The arguments of a git process started directly (the early listing, check-ignore): the same neutral settings. */
export function directGitArgs(root: string, args: readonly string[]): string[] {
  return ['-C', root, ...NEUTRAL_CONFIG.flatMap((c) => ['-c', c]), ...args];
}

/**
 * A git process started directly, for the two read-only calls that stream (the early listing,
 * check-ignore over stdin) and must not wait for simple-git to load; the same settings and
 * environment as `openGit`. No driver runs in these: neither reads a file's content.
 */
export function spawnGit(root: string, args: readonly string[], input: 'with input'): ChildProcessByStdio<Writable, Readable, Readable>;
export function spawnGit(root: string, args: readonly string[]): ChildProcessByStdio<null, Readable, null>;
export function spawnGit(root: string, args: readonly string[], input?: 'with input') {
  // Taken when first needed: cli.ts, which starts the listing, loads child_process for no other command.
  const { spawn } = process.getBuiltinModule('node:child_process');
  // Only the pipes a call reads are made: each is a handle and a stream made while the process waits for git to start.
  const stdio = input ? (['pipe', 'pipe', 'pipe'] as const) : (['ignore', 'pipe', 'ignore'] as const);
  return spawn('git', directGitArgs(root, args), { stdio: [...stdio], env: gitEnv() });
}

/** One short git call started directly, its output or null when git failed (not a work tree, no git). */
export function runGit(root: string, args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    try {
      const git = spawnGit(root, args);
      const out: Buffer[] = [];
      git.stdout.on('data', (c: Buffer) => out.push(c));
      git.on('error', () => resolve(null));
      git.on('close', (code) => resolve(code === 0 ? Buffer.concat(out).toString('utf8') : null));
    } catch {
      resolve(null); // a folder name git cannot be given (a NUL in it)
    }
  });
}

/**
 * simple-git at `root` with the neutral settings; with `drivers`, also every filter, diff and merge
 * driver the folder's configuration names (one `git config --list` first): for the calls that read
 * a file's content (status, add, commit).
 */
export async function openGit(root: string, opts: { drivers?: boolean } = {}): Promise<SimpleGit> {
  const { simpleGit } = await import('simple-git');
  const make = (config: string[]) =>
    simpleGit({ baseDir: root, maxConcurrentProcesses: 2, config, unsafe: UNSAFE_ALLOWED, allowEnvironment: ALLOWED_ENV }).env(gitEnv());
  const base = [...NEUTRAL_CONFIG];
  if (!opts.drivers) return make(base);
  const keys = await make(base)
    .raw(['config', '--list', '--name-only', '-z'])
    .catch(() => '');
  return make([...base, ...neutralDrivers(keys.split('\0').filter(Boolean))]);
}
