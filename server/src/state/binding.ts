import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fsSync from 'node:fs';
import { canonicalJson } from '../common/hash.js';
import { gitDir } from '../repo/git-dir.js';
import { normalizeRepoPath } from '../repo/repo-path.js';
import { createFile, ensureFolder, readFile, setFolderMode, writeFile } from '../repo/safe-fs.js';
import { STATE_DIR } from '../repo/state-paths.js';
import { VERSION } from '../version.js';

/**
 * Decision state (the journal, backup manifests, the plan, the onboarding state with its approval)
 * is sealed with a key of this clone: an HMAC-SHA256 over the file's role and content, kept in the
 * file's `binding` field. The key lives where git never carries it, in the work tree's git folder;
 * a repository someone else prepared arrives without it, so state that came with it (committed,
 * copied) never verifies, and is ignored (docs/security.md, "State a clone cannot forge").
 */

export const BINDING_FIELD = 'binding';
const PREFIX = 'hmac-sha256:';
const KEY_HEADER = 'copilot-onboard clone key v1';

/** Where the key is: in the git folder; outside git in `.copilot-state/`, tied to the root folder's inode, which a copy does not keep. */
interface KeyPlace {
  base: string;
  rel: string;
  inode: number | null;
}

async function keyPlace(root: string): Promise<KeyPlace> {
  const dir = await gitDir(root);
  if (dir !== null && fsSync.existsSync(dir)) return { base: dir, rel: 'copilot-onboard/clone-key', inode: null };
  return { base: root, rel: `${STATE_DIR}/clone-key`, inode: fsSync.statSync(root).ino };
}

function keyText(key: Buffer, inode: number | null): string {
  return `${KEY_HEADER}\n${key.toString('hex')}\n${inode ?? '-'}\n`;
}

/** The key a key file holds, or null when it is not a key of this place (another folder's, or damaged). */
function keyOf(text: string, inode: number | null): Buffer | null {
  const m = /^copilot-onboard clone key v1\n([0-9a-f]{64})\n(\d+|-)\n$/.exec(text);
  if (!m || m[2] !== String(inode ?? '-')) return null;
  return Buffer.from(m[1]!, 'hex');
}

/** This clone's key, or null when none was made here yet: then no state in the repository is bound. */
export async function cloneKey(root: string): Promise<Buffer | null> {
  return keyAt(await keyPlace(root));
}

async function keyAt(place: KeyPlace): Promise<Buffer | null> {
  const bytes = await readFile(place.base, place.rel).catch(() => null);
  return bytes ? keyOf(bytes.toString('utf8'), place.inode) : null;
}

/** This clone's key, made (readable by this user alone) when there is none. */
async function cloneKeyMade(root: string): Promise<Buffer> {
  const place = await keyPlace(root);
  const existing = await keyAt(place);
  if (existing) return existing;
  const key = randomBytes(32);
  const folder = place.rel.slice(0, place.rel.lastIndexOf('/'));
  if (place.inode === null && !fsSync.existsSync(`${place.base}/${folder}`)) {
    await ensureFolder(place.base, folder);
    await setFolderMode(place.base, folder, 0o700);
  }
  if (await createFile(place.base, place.rel, keyText(key, place.inode), { mode: 0o600 })) return key;
  // Another process made one first, or what stands there is not a key of this place: a key of this place replaces it.
  const raced = await keyAt(place);
  if (raced) return raced;
  await writeFile(place.base, place.rel, keyText(key, place.inode), { mode: 0o600 });
  return key;
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
