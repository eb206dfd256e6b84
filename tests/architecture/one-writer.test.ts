import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every write copilot-onboard makes goes through server/src/repo/safe-fs.ts (its parts in safe-fs/), which checks that no
 * link is on the way. This scan fails when any other source file under server/src/ calls a writing
 * fs API, imports a writing library, or opens a file with write flags. Reads are fine elsewhere.
 */

const SRC = path.resolve(import.meta.dirname, '../../server/src');
/** The safe writer: its door and its parts (safe-fs/, one job each). */
const isSafeFs = (rel: string) => rel === 'repo/safe-fs.ts' || rel.startsWith('repo/safe-fs/');
/** Findings that are not file writes, each with why: file → the exact findings allowed there. */
const NOT_FILE_WRITES: Record<string, string[]> = {
  // The progress line's worker writes to the terminal's stderr descriptor (writeSync(fd)), never to a file.
  'show/progress-line.ts': ['requires node:fs'],
};

const FS_MODULES = /^(node:)?fs(\/promises)?$|^fs-extra$|^graceful-fs$/;
const WRITING_LIBRARIES = /^(write-file-atomic|proper-lockfile|rimraf|mkdirp|make-dir|del|graceful-fs|move-file|cpy|ncp|tmp|tempy)(\/.*)?$/;
const WRITERS = [
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'write',
  'writeSync',
  'writev',
  'writevSync',
  'rename',
  'renameSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'unlink',
  'unlinkSync',
  'remove',
  'removeSync',
  'mkdir',
  'mkdirSync',
  'mkdtemp',
  'mkdtempSync',
  'mkdirp',
  'mkdirs',
  'mkdirsSync',
  'ensureDir',
  'ensureDirSync',
  'ensureFile',
  'ensureFileSync',
  'ensureLink',
  'ensureSymlink',
  'outputFile',
  'outputFileSync',
  'outputJson',
  'outputJSON',
  'outputJsonSync',
  'writeJson',
  'writeJSON',
  'writeJsonSync',
  'copy',
  'copySync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'move',
  'moveSync',
  'emptyDir',
  'emptyDirSync',
  'symlink',
  'symlinkSync',
  'link',
  'linkSync',
  'chmod',
  'chmodSync',
  'lchmod',
  'fchmod',
  'chown',
  'chownSync',
  'lchown',
  'fchown',
  'utimes',
  'utimesSync',
  'lutimes',
  'futimes',
  'truncate',
  'truncateSync',
  'ftruncate',
  'createWriteStream',
];
const WRITE_FLAGS = /['"`][^'"`]*[wa+][^'"`]*['"`]|O_WRONLY|O_RDWR|O_CREAT|O_APPEND|O_TRUNC/;

export interface Finding {
  line: number;
  what: string;
}

/** Writing fs calls in one source text. */
export function writingCalls(source: string): Finding[] {
  const found: Finding[] = [];
  const lineOf = (index: number) => source.slice(0, index).split('\n').length;
  // Names bound to fs modules: default, namespace and named imports.
  const bound = new Set<string>();
  const imports = /import\s+(?:type\s+)?([^'";]*?)\s+from\s+['"]([^'"]+)['"]/g;
  for (const m of source.matchAll(imports)) {
    const [, clause, from] = m;
    if (/^import\s+type\s/.test(m[0])) continue;
    if (WRITING_LIBRARIES.test(from!)) found.push({ line: lineOf(m.index!), what: `imports ${from}` });
    if (!FS_MODULES.test(from!)) continue;
    const def = /^([A-Za-z_$][\w$]*)/.exec(clause!.trim());
    if (def && !clause!.trim().startsWith('{')) bound.add(def[1]!);
    const ns = /\*\s+as\s+([A-Za-z_$][\w$]*)/.exec(clause!);
    if (ns) bound.add(ns[1]!);
    const named = /\{([^}]*)\}/.exec(clause!);
    for (const part of named ? named[1]!.split(',') : []) {
      const [orig, alias] = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/);
      if (!orig) continue;
      if (orig === 'promises') bound.add(alias ?? orig);
      if (WRITERS.includes(orig)) found.push({ line: lineOf(m.index!), what: `imports ${orig} from ${from}` });
      if (orig === 'open' || orig === 'openSync') bound.add(`open:${alias ?? orig}`);
    }
  }
  for (const m of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    if (FS_MODULES.test(m[1]!) || WRITING_LIBRARIES.test(m[1]!))
      found.push({ line: lineOf(m.index!), what: `imports ${m[1]} at run time` });
  }
  for (const m of source.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    if (FS_MODULES.test(m[1]!) || WRITING_LIBRARIES.test(m[1]!)) found.push({ line: lineOf(m.index!), what: `requires ${m[1]}` });
  }
  const receivers = [...bound].filter((b) => !b.startsWith('open:'));
  if (receivers.length > 0) {
    const names = receivers.map((r) => r.replace(/\$/g, '\\$')).join('|');
    const call = new RegExp(`\\b(${names})(?:\\.promises)?\\.(\\w+)\\s*\\(`, 'g');
    for (const m of source.matchAll(call)) {
      const method = m[2]!;
      if (WRITERS.includes(method)) found.push({ line: lineOf(m.index!), what: `${m[1]}.${method}(` });
      if (method === 'open' || method === 'openSync') {
        const args = source.slice(m.index! + m[0].length, source.indexOf(')', m.index! + m[0].length) + 1);
        if (WRITE_FLAGS.test(args.split(',').slice(1).join(',')))
          found.push({ line: lineOf(m.index!), what: `${m[1]}.${method}( with write flags` });
      }
    }
  }
  // A file handle's writers (`fh.write(`, `handle.chmod(`) after an open anywhere in the file.
  if (/\.open\w*\s*\(/.test(source)) {
    for (const m of source.matchAll(
      /\b(\w*(?:fh|handle|fd)\w*)\.(write|writeFile|appendFile|chmod|chown|truncate|utimes|sync|datasync)\s*\(/gi,
    )) {
      found.push({ line: lineOf(m.index!), what: `${m[1]}.${m[2]}(` });
    }
  }
  return found;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) return sources(abs);
    return e.name.endsWith('.ts') ? [abs] : [];
  });
}

test('the scan finds writing fs calls in a source text', () => {
  const bad = [
    "import fs from 'fs-extra';\nawait fs.writeFile(p, 'x');",
    "import fs from 'node:fs/promises';\nawait fs.rm(p, { recursive: true });",
    "import * as nodefs from 'node:fs';\nnodefs.renameSync(a, b);",
    "import { promises as fsp } from 'node:fs';\nawait fsp.unlink(p);",
    "import { writeFileSync } from 'node:fs';",
    "import fs from 'node:fs';\nfs.promises.mkdir(p);",
    "import writeFileAtomic from 'write-file-atomic';",
    "import lockfile from 'proper-lockfile';",
    "import fs from 'node:fs/promises';\nconst fh = await fs.open(p, 'w');",
    "import fs from 'node:fs/promises';\nconst fh = await fs.open(p, constants.O_WRONLY | constants.O_CREAT);",
    "import fs from 'fs-extra';\nawait fs.ensureDir(p);\n",
    "import fs from 'fs-extra';\nawait fs.outputFile(p, 'x');\n",
    "const fs = await import('node:fs');",
    "import fs from 'node:fs';\nfs.symlinkSync(t, p);",
    "import fs from 'node:fs/promises';\nawait fs.chmod(p, 0o644);",
  ];
  for (const text of bad) assert.ok(writingCalls(text).length > 0, text);
  const fine = [
    "import fs from 'node:fs/promises';\nconst t = await fs.readFile(p, 'utf8');\nawait fs.lstat(p);\nawait fs.readdir(d);",
    "import fs from 'node:fs/promises';\nconst fh = await fs.open(p, 'r');",
    "process.stdout.write('x');\nstream.write('y');",
    "import type { Stats } from 'node:fs';",
  ];
  for (const text of fine) assert.deepEqual(writingCalls(text), [], text);
});

test('no source file under server/src/ but repo/safe-fs.ts calls a writing fs API', () => {
  const offenders: string[] = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    if (isSafeFs(rel)) continue;
    for (const f of writingCalls(fs.readFileSync(file, 'utf8'))) {
      if (!NOT_FILE_WRITES[rel]?.includes(f.what)) offenders.push(`server/src/${rel}:${f.line}: ${f.what}`);
    }
  }
  assert.deepEqual(offenders, [], `Write through server/src/repo/safe-fs.ts instead:\n${offenders.join('\n')}`);
});

test('the safe writer itself is where the writing calls are', () => {
  const parts = fs.readdirSync(path.join(SRC, 'repo/safe-fs')).map((f) => path.join(SRC, 'repo/safe-fs', f));
  assert.ok(parts.flatMap((f) => writingCalls(fs.readFileSync(f, 'utf8'))).length > 5);
});
