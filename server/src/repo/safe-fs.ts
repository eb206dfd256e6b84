/**
 * The one place that changes anything on disk: every write, create, rename, remove, mkdir, chmod,
 * symlink and lock of copilot-onboard goes through here (tests/architecture/one-writer.test.ts fails when
 * another source file calls a writing fs API). It also reads the tool's own files (state, traces,
 * backups), so that those reads follow the same rules.
 *
 * Every path is a repository root (trusted: the person named it, and it is resolved once) and a
 * repository-relative path. The rules:
 * - each folder on the way from the root is a real folder: lstat, never a symlink, even one that
 *   stays inside; a missing one is made with mkdir, one at a time, and checked again;
 * - the final name is not a symlink (nor a folder, FIFO or device where a file is expected);
 * - a file is written to a temporary file created in that real folder with
 *   O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW, written, fsynced and renamed over the name; then the folder
 *   is fsynced. rename replaces the name itself: it never writes through a link;
 * - reads open with O_NOFOLLOW|O_NONBLOCK and check with fstat that they got a regular file, so a
 *   FIFO never blocks and a device is never read.
 *
 * A link anywhere on the way is refused with LinkRefusedError naming it (CLI exit 2, MCP
 * precondition_failed). A local process that swaps a folder for a link between the check and the
 * write can still win that race (Node has no openat); docs/security.md says so.
 *
 * The parts, one job each, in safe-fs/: entries.ts (what an entry is, the refusals), places.ts
 * (links and path checks), durable.ts (whole writes, fsync), writing.ts, reading.ts, listing.ts and
 * lock.ts (proper-lockfile's lock through the checks). This module is their one door.
 */
export { LinkRefusedError, NotAFolderError, NotAFileError, kindOf, type TooLarge } from './safe-fs/entries.js';
export { TEMP_PREFIX, fsyncFolder } from './safe-fs/durable.js';
export { assertStateTreeReal, assertWritable } from './safe-fs/places.js';
export * from './safe-fs/writing.js';
export { readFile, readResolvedFile, readResolvedFileSync, readRegularNoFollowSync, type NoFollowRead } from './safe-fs/reading.js';
export * from './safe-fs/listing.js';
export * from './safe-fs/lock.js';
