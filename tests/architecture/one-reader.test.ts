import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every read of a file's bytes or a folder's entries goes through server/src/repo/ (the safe reader
 * in repo/safe-fs.ts and the source reader beside it), which opens no-follow and non-blocking and
 * reads only a regular file: a FIFO, a device or a link a folder brings never blocks or leads out
 * (docs/security.md). This scan fails when a source file outside repo/ calls a reading fs API.
 */

const SRC = path.resolve(import.meta.dirname, '../../server/src');
/** Files outside repo/ allowed to read, each with why (file → the exact findings allowed there). */
const ALLOWED: Record<string, { findings: string[]; why: string }> = {
  'package-root.ts': {
    findings: ['readFileSync('],
    why: "the tool's own package.json, in the folder it is installed in: nothing a repository brings",
  },
  'code-cache.ts': {
    findings: ['fs.readFileSync(', 'fs.readFileSync('],
    why: "the build's own read-only file and the code cache made for it, in the folder it is installed in: nothing a repository brings",
  },
  'cli/demo.ts': {
    findings: ['fs.readFileSync(', 'fs.readdirSync('],
    why: 'the demo reads back the sandbox it has just built from its embedded example, in a temp folder it made itself',
  },
};

const FS_MODULES = /^(node:)?fs(\/promises)?$|^fs-extra$|^graceful-fs$/;
const READERS = [
  'readFile',
  'readFileSync',
  'createReadStream',
  'readdir',
  'readdirSync',
  'opendir',
  'opendirSync',
  'read',
  'readSync',
  'readv',
  'readvSync',
  'readJson',
  'readJSON',
  'readJsonSync',
  'readJSONSync',
];

/** Reading fs calls in one source text: through a name bound to an fs module, or a reader imported by name. */
export function readingCalls(source: string): string[] {
  const found: string[] = [];
  const bound = new Set<string>();
  for (const m of source.matchAll(/import\s+([^'";]*?)\s+from\s+['"]([^'"]+)['"]/g)) {
    const [, clause, from] = m;
    if (/^import\s+type\s/.test(m[0]) || !FS_MODULES.test(from!)) continue;
    const def = /^([A-Za-z_$][\w$]*)/.exec(clause!.trim());
    if (def && !clause!.trim().startsWith('{')) bound.add(def[1]!);
    const ns = /\*\s+as\s+([A-Za-z_$][\w$]*)/.exec(clause!);
    if (ns) bound.add(ns[1]!);
    for (const part of /\{([^}]*)\}/.exec(clause!)?.[1]!.split(',') ?? []) {
      const [orig, alias] = part.trim().split(/\s+as\s+/);
      if (orig === 'promises') bound.add(alias ?? orig);
      if (orig && READERS.includes(orig)) found.push(`${alias ?? orig}(`);
    }
  }
  // `const fs = process.getBuiltinModule('node:fs')` and `require('node:fs')`.
  for (const m of source.matchAll(
    /(?:const|let)\s+(?:\{([^}]*)\}|([A-Za-z_$][\w$]*))\s*=\s*(?:process\.getBuiltinModule|require)\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    if (!FS_MODULES.test(m[3]!)) continue;
    if (m[2]) bound.add(m[2]);
    for (const part of m[1]?.split(',') ?? []) {
      const [orig, alias] = part.trim().split(/\s*:\s*/);
      if (orig && READERS.includes(orig)) found.push(`${alias ?? orig}(`);
    }
  }
  if (bound.size > 0) {
    const names = [...bound].map((r) => r.replace(/\$/g, '\\$')).join('|');
    for (const m of source.matchAll(new RegExp(`\\b(${names})(?:\\.promises)?\\.(\\w+)\\s*\\(`, 'g')))
      if (READERS.includes(m[2]!)) found.push(`${m[1]}.${m[2]}(`);
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

test('the scan finds reading fs calls in a source text', () => {
  const bad = [
    "import fs from 'node:fs/promises';\nawait fs.readFile(p, 'utf8');",
    "import fs from 'node:fs';\nfs.readdirSync(d);",
    "import { readFileSync } from 'node:fs';",
    "import * as nodefs from 'node:fs';\nnodefs.createReadStream(p);",
    "import { promises as fsp } from 'node:fs';\nawait fsp.opendir(d);",
    "import fs from 'fs-extra';\nawait fs.readJson(p);",
    "const fs = process.getBuiltinModule('node:fs');\nfs.readFileSync(p);",
    "const { readFileSync } = process.getBuiltinModule('node:fs');",
  ];
  for (const text of bad) assert.ok(readingCalls(text).length > 0, text);
  const fine = [
    "import fs from 'node:fs/promises';\nawait fs.lstat(p);\nawait fs.realpath(p);",
    "import { readFile } from '../repo/safe-fs.js';\nawait readFile(root, rel);",
    "import type { Dirent } from 'node:fs';",
  ];
  for (const text of fine) assert.deepEqual(readingCalls(text), [], text);
});

test('no source file under server/src/ outside repo/ reads a file or a folder but through the safe reader (exceptions listed with why)', () => {
  const offenders: string[] = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    if (rel.startsWith('repo/')) continue;
    const found = readingCalls(fs.readFileSync(file, 'utf8'));
    const allowed = ALLOWED[rel]?.findings ?? [];
    for (const f of found) if (!allowed.includes(f)) offenders.push(`${rel}: ${f}`);
  }
  assert.deepEqual(offenders, []);
  // Each exception is still needed: one no longer found is taken off the list.
  for (const [rel, { findings }] of Object.entries(ALLOWED))
    assert.deepEqual(readingCalls(fs.readFileSync(path.join(SRC, rel), 'utf8')).sort(), [...findings].sort(), rel);
});
