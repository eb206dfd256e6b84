import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../../server/src/common/hash.js';
import { writeFile } from './sandbox.js';

/**
 * What an attacker builds on their own machine and ships in an archive: decision state in the tool's
 * own formats, sealed with a key the attacker chose, and a key file where an earlier build looked for
 * it. Unpacked into a folder that holds the person's `.env`, a start that believed the key finished
 * the "interrupted rollback" and wrote the attacker's bytes over it.
 */

export const EVIL = 'API_KEY=the-attackers-key\n';
export const SECRET = 'API_KEY=the-persons-own-secret\n';
/** The attacker's key: anything 32 bytes long. */
export const ATTACKER_KEY = Buffer.alloc(32, 0x5a);

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const PLAN_HASH = sha('a plan the attacker made');
const ID = '2026-01-01T00-00-00-000Z';

/** A key file as the earlier build wrote it: `inode` null in a git folder, the folder's inode outside git. */
export function keyFileText(key: Buffer, inode: number | null): string {
  return `copilot-onboard clone key v1\n${key.toString('hex')}\n${inode ?? '-'}\n`;
}

/** `content` sealed as the file `rel` under `key`, exactly as the tool seals its state. */
function sealedWith(key: Buffer, rel: string, content: Record<string, unknown>): Record<string, unknown> {
  const mac = createHmac('sha256', key)
    .update(`${rel}\0${canonicalJson(content)}`)
    .digest('hex');
  return { ...content, binding: `hmac-sha256:${mac}` };
}

function writeSealed(dir: string, key: Buffer, rel: string, content: Record<string, unknown>): void {
  writeFile(dir, rel, JSON.stringify(sealedWith(key, rel, content)));
}

/**
 * A recorded migration of `.env` and the journal of its rollback, interrupted: finished at the next
 * start, it would put the backup's bytes (the attacker's) back into `.env`.
 */
export function forgeInterruptedRollback(dir: string, key: Buffer = ATTACKER_KEY): void {
  const now = '2026-01-01T00:00:00.000Z';
  const env = { path: '.env', existed: true, beforeSha256: sha(EVIL), afterSha256: sha(SECRET) };
  writeSealed(dir, key, '.copilot-state/onboarding.json', {
    version: 1,
    step: 'migrated',
    updatedAt: now,
    plan: { planHash: PLAN_HASH, createdAt: now, operations: 1 },
    approval: null,
    migrations: [
      { id: ID, planHash: PLAN_HASH, migratedAt: now, backupDir: `.copilot-state/backups/${ID}`, files: [env], rolledBackAt: null },
    ],
  });
  writeSealed(dir, key, `.copilot-state/backups/${ID}/manifest.json`, {
    version: 1,
    id: ID,
    planHash: PLAN_HASH,
    createdAt: now,
    files: [{ ...env, sha256: sha(EVIL), backup: 'files/.env', mode: 0o644 }],
  });
  writeFile(dir, `.copilot-state/backups/${ID}/files/.env`, EVIL);
  writeSealed(dir, key, '.copilot-state/journal.json', {
    version: 1,
    operation: 'rollback',
    migrationId: ID,
    planHash: PLAN_HASH,
    startedAt: now,
    phase: 'restore',
    pid: 999_999,
    files: [{ path: '.env', beforeSha256: sha(EVIL), afterSha256: sha(SECRET) }],
    edited: [],
  });
}

/** Whether `zip` and `unzip` are on this machine (`tar` is taken for granted). */
export const hasZip = ['zip', 'unzip'].every((cmd) => spawnSync(cmd, ['-v'], { stdio: 'ignore' }).status === 0);

/**
 * Pack `hostile` as an attacker would (`tar`, or `zip` keeping links as links) and unpack it into
 * `target`, which already holds the person's files, as the person would.
 */
export function shipArchive(hostile: string, target: string, kind: 'tar' | 'zip'): void {
  const archive = path.join(path.dirname(hostile), `shipped.${kind}`);
  fs.rmSync(archive, { force: true });
  if (kind === 'tar') {
    execFileSync('tar', ['-C', hostile, '-cf', archive, '.']);
    execFileSync('tar', ['-C', target, '-xf', archive]);
  } else {
    execFileSync('zip', ['-qry', archive, '.'], { cwd: hostile });
    execFileSync('unzip', ['-qo', archive, '-d', target]);
  }
}

/** Every entry under `root`, with its kind, mode and bytes (links by their target): what must not change. */
export function entries(root: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    const abs = rel ? path.join(root, rel) : root;
    const st = fs.lstatSync(abs);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isSymbolicLink()) out[rel] = `link ${fs.readlinkSync(abs)}`;
    else if (st.isDirectory()) {
      out[`${rel}/`] = `dir ${mode}`;
      for (const name of fs.readdirSync(abs)) {
        const child = rel ? `${rel}/${name}` : name;
        if (!skip(child)) walk(child);
      }
    } else out[rel] = `file ${mode} ${sha(fs.readFileSync(abs))}`;
  };
  walk('');
  return out;
}
