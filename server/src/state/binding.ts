import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fsSync from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../common/hash.js';
import { trustedGitDir } from '../repo/git-dir.js';
import { normalizeRepoPath } from '../repo/repo-path.js';
import { createFile, ensureFolder, readFile, setFolderMode, writeFile } from '../repo/safe-fs.js';
import { userStateHome } from '../repo/state-paths.js';
import { VERSION } from '../version.js';

/**
 * Decision state (the journal, backup manifests, the plan, the onboarding state with its approval)
 * is sealed with a key of this clone: an HMAC-SHA256 over the file's role and content, kept in the
 * file's `binding` field. The key lives where the folder cannot bring it: in the git folder git
 * itself names for the work tree (repo/git-dir.ts: never one the folder holds but `.git`), and
 * outside git in this user's state folder, named after the folder's device, inode and birth time.
 * A key file inside the folder (`.copilot-state/clone-key`, which an earlier version wrote outside
 * git) is never believed: an archive can bring it with a matching inode. State that came with the
 * folder (committed, copied, unpacked) never verifies, and is ignored (docs/security.md, "State a
 * clone cannot forge").
 */

export const BINDING_FIELD = 'binding';
const PREFIX = 'hmac-sha256:';
const KEY_HEADER = 'copilot-onboard clone key v1';

/** Where the key is: a base folder (the git folder, or the user's state folder) and the key file's path in it. */
interface KeyPlace {
  base: string;
  rel: string;
}

async function keyPlace(root: string): Promise<KeyPlace> {
  const git = await trustedGitDir(root);
  if (git !== null) return { base: git.dir, rel: 'copilot-onboard/clone-key' };
  // The state folder may not exist yet: the key's path starts at the nearest folder above it that does.
  const home = userStateHome();
  let from = home;
  while (!fsSync.existsSync(from) && path.dirname(from) !== from) from = path.dirname(from);
  const inHome = path.relative(from, home).split(path.sep).filter(Boolean).join('/');
  return { base: from, rel: `${inHome ? `${inHome}/` : ''}clone-keys/${folderIdentity(root)}` };
}

/**
 * The folder's identity on this machine: device, inode and birth time (statx), which a copy or an
 * unpacked archive does not keep, even at a file system's root (inode 1 or 2 on every tmpfs or
 * ext4). Where the file system keeps no birth time, device and inode alone: the key is still
 * outside the folder, so a folder brings none.
 */
function folderIdentity(root: string): string {
  const st = fsSync.statSync(root, { bigint: true });
  return createHash('sha256').update(`folder\0${st.dev}\0${st.ino}\0${st.birthtimeNs}`).digest('hex');
}

function keyText(key: Buffer): string {
  return `${KEY_HEADER}\n${key.toString('hex')}\n-\n`;
}

/** The key a key file holds, or null when it is damaged. */
function keyOf(text: string): Buffer | null {
  const m = /^copilot-onboard clone key v1\n([0-9a-f]{64})\n-\n$/.exec(text);
  return m ? Buffer.from(m[1]!, 'hex') : null;
}

/** This clone's key, or null when none was made here yet: then no state in the repository is bound. */
export async function cloneKey(root: string): Promise<Buffer | null> {
  return keyAt(await keyPlace(root));
}

async function keyAt(place: KeyPlace): Promise<Buffer | null> {
  const bytes = await readFile(place.base, place.rel).catch(() => null);
  return bytes ? keyOf(bytes.toString('utf8')) : null;
}

/** This clone's key, made (readable by this user alone, in folders only this user can open) when there is none. */
async function cloneKeyMade(root: string): Promise<Buffer> {
  const place = await keyPlace(root);
  const existing = await keyAt(place);
  if (existing) return existing;
  const key = randomBytes(32);
  await ensurePrivateFolders(place);
  if (await createFile(place.base, place.rel, keyText(key), { mode: 0o600 })) return key;
  // Another process made one first, or what stands there is not a key: a key of this place replaces it.
  const raced = await keyAt(place);
  if (raced) return raced;
  await writeFile(place.base, place.rel, keyText(key), { mode: 0o600 });
  return key;
}

/** Every missing folder on the way to the key is made 0700 (the git folder's own `copilot-onboard/`, or the state folder and `clone-keys/`). */
async function ensurePrivateFolders(place: KeyPlace): Promise<void> {
  const parts = place.rel.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join('/');
    if (fsSync.existsSync(path.join(place.base, rel))) continue;
    await ensureFolder(place.base, rel);
    await setFolderMode(place.base, rel, 0o700);
  }
}

function macOf(key: Buffer, rel: string, content: unknown): string {
  return (
    PREFIX +
    createHmac('sha256', key)
      .update(`${normalizeRepoPath(rel)}\0${canonicalJson(content)}`)
      .digest('hex')
  );
}

export function withoutBinding(json: Record<string, unknown>): Record<string, unknown> {
  const { [BINDING_FIELD]: _binding, ...content } = json;
  return content;
}

/** `value` with its binding to this clone, as the file `rel` (its role is part of what is sealed). */
export async function sealed<T extends object>(root: string, rel: string, value: T): Promise<T> {
  // Every sealed file names the version that wrote it: an upgrade is told from a copy (state/earlier-version.ts).
  const content = { ...withoutBinding(value as Record<string, unknown>), writtenBy: VERSION };
  return { ...content, [BINDING_FIELD]: macOf(await cloneKeyMade(root), rel, content) } as T;
}

/** Whether `json`, read from the file `rel`, was written by this clone and not changed since. */
export async function isBound(root: string, rel: string, json: unknown, key?: Buffer | null): Promise<boolean> {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return false;
  const mac = (json as Record<string, unknown>)[BINDING_FIELD];
  if (typeof mac !== 'string') return false;
  const k = key === undefined ? await cloneKey(root) : key;
  if (!k) return false;
  const want = Buffer.from(macOf(k, rel, withoutBinding(json as Record<string, unknown>)));
  const got = Buffer.from(mac);
  return got.length === want.length && timingSafeEqual(got, want);
}

/**
 * The JSON of a decision-state file when this clone wrote it (state/binding.ts); null when the file
 * does not exist or was not written here (committed, copied, or changed since): such a file is never
 * used, and `foreignState` reports it.
 */
export async function boundJson(root: string, rel: string, key?: Buffer | null): Promise<unknown> {
  const bytes = await readFile(root, rel);
  if (bytes === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  // The seal is the file's, not its content's: what is read carries none, and a write seals anew.
  return (await isBound(root, rel, json, key)) ? withoutBinding(json as Record<string, unknown>) : null;
}
