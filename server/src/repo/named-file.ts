import fsSync from 'node:fs';
import path from 'node:path';
import { BadInputError, UnsafePathError } from '../common/errors.js';
import { LinkRefusedError, NotAFileError, NotAFolderError, readFile, writeFile } from './safe-fs.js';
import { showPath } from '../show/untrusted.js';

/**
 * The files a person names on the command line (`check --baseline FILE`, `--write-baseline FILE`),
 * read and written with the rules of the tool's own state (docs/security.md): through safe-fs, no
 * link on the way nor at the name (even one that stays inside), a regular file only (a FIFO never
 * blocks, a device is never read), at most MAX_NAMED_FILE_BYTES. Every refusal is bad input (exit 2)
 * naming the file as the person wrote it; none quotes a byte of the file.
 *
 * "On the way" starts at the repository when the file lies in it (the repository is untrusted
 * content, but its root is trusted as named), else at the working directory. A file to read outside
 * both is the person's own choice: its folder is trusted as named, like the repository root, and the
 * name itself is checked. A file to write must lie under one of the two.
 */

/**
 * 16 MiB. A baseline of a repository of 500 rule files with 5,000 findings is about 1.9 MB (some
 * 370 bytes a finding): the limit holds some 45,000 findings, and a write over it is refused too,
 * so that every baseline the tool writes can be read back.
 */
export const MAX_NAMED_FILE_BYTES = 16 * 1024 * 1024;

/** A named file: the option it came with, its name as given, and the folder its checks start from. */
interface Named {
  option: string;
  file: string;
  base: string;
  rel: string;
}

/** The bytes of the file named with `option`; refused (BadInputError) unless it is a regular file, reached through no link, within the limit. */
export async function readNamedFile(option: string, file: string, root: string, maxBytes = MAX_NAMED_FILE_BYTES): Promise<Buffer> {
  const named = placeUnder(option, file, root) ?? placeOutside(option, file);
  let bytes;
  try {
    bytes = await readFile(named.base, named.rel, { maxBytes });
  } catch (err) {
    throw refusal(named, err, 'read');
  }
  if (bytes === null) throw new BadInputError(`${head(named)} does not exist`);
  if ('tooLarge' in bytes) throw new BadInputError(`${head(named)} is ${bytes.size} bytes, over the ${maxBytes}-byte limit ${LIMIT_WORDS}`);
  return bytes;
}

/** Write `data` to the file named with `option`, under the working directory or the repository; refused as for reading. */
export async function writeNamedFile(
  option: string,
  file: string,
  root: string,
  data: string,
  maxBytes = MAX_NAMED_FILE_BYTES,
): Promise<void> {
  const named = placeUnder(option, file, root);
  if (!named) throw new BadInputError(`${option} ${showPath(file)}: write it under the working directory or the repository`);
  const size = Buffer.byteLength(data, 'utf8');
  if (size > maxBytes)
    throw new BadInputError(`${head(named)} would be ${size} bytes, over the ${maxBytes}-byte limit ${LIMIT_WORDS}; nothing was written`);
  try {
    await writeFile(named.base, named.rel, data);
  } catch (err) {
    throw refusal(named, err, 'write');
  }
}

const LIMIT_WORDS = 'for a file named on the command line';

/** Where the checks start for a file under the repository (as named, then resolved) or the working directory; null outside both. */
function placeUnder(option: string, file: string, root: string): Named | null {
  const abs = path.resolve(file);
  for (const base of [path.resolve(root), realOrNull(root), process.cwd()]) {
    if (base === null) continue;
    const rel = path.relative(base, abs);
    if (rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel)) return named(option, file, base, rel);
  }
  return null;
}

/** A file outside the repository and the working directory: its folder as named, its name checked. */
function placeOutside(option: string, file: string): Named {
  const abs = path.resolve(file);
  // The root of the file system (`--baseline /`) has no name: it is a folder.
  if (path.basename(abs) === '') throw new BadInputError(`${option} ${showPath(file)} is a folder, not a regular file`);
  return named(option, file, path.dirname(abs), path.basename(abs));
}

function named(option: string, file: string, base: string, rel: string): Named {
  // safe-fs reads a backslash as a separator: `a\b` would be the file b in the folder a, not the file named.
  if (path.sep === '/' && rel.includes('\\'))
    throw new BadInputError(`${option} ${showPath(file)}: a name holding a backslash is not read or written`);
  return { option, file, base, rel: rel.split(path.sep).join('/') };
}

function realOrNull(root: string): string | null {
  try {
    return fsSync.realpathSync.native(root);
  } catch {
    return null;
  }
}

/** `--baseline FILE`, the file as the person wrote it. */
function head(n: Named): string {
  return `${n.option} ${showPath(n.file)}`;
}

/** A part of the way (a repository-relative path from the base) as the person would write it: relative when they named the file so. */
function shownPart(n: Named, partRel: string): string {
  const abs = path.join(n.base, ...partRel.split('/'));
  const rel = path.relative(process.cwd(), abs);
  return showPath(path.isAbsolute(n.file) || rel === '' || rel.startsWith('..') ? abs : rel);
}

/** What safe-fs refused, said of the file the person named, in one line that quotes none of its bytes. */
function refusal(n: Named, err: unknown, verb: 'read' | 'write'): unknown {
  const at = (rel: string) => (rel === n.rel ? head(n) : `${head(n)}: ${shownPart(n, rel)}`);
  if (err instanceof LinkRefusedError) {
    const to = err.target === null ? '' : ` (to ${showPath(err.target)})`;
    return new BadInputError(
      `${at(err.rel)} is a symlink${to}; copilot-onboard reads and writes no file you name through a link. Name the real file instead`,
    );
  }
  if (err instanceof NotAFileError) return new BadInputError(`${at(err.rel)} is ${err.what}, not a regular file`);
  if (err instanceof NotAFolderError) return new BadInputError(`${at(err.rel)} is ${err.what}, not a folder`);
  if (err instanceof UnsafePathError) return new BadInputError(`${head(n)}: ${err.message}`);
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  // A folder on the way that does not exist (a name outside the working directory is opened from its own folder).
  if (code === 'ENOENT' && verb === 'read') return new BadInputError(`${head(n)} does not exist`);
  if (typeof code === 'string') return new BadInputError(`cannot ${verb} ${head(n)}: ${code}`);
  return err;
}
