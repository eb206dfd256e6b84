/**
 * `propose`'s way into the read-only commands: the same module, which the build points at the same
 * file with a code cache of its own (scripts/bundle.mjs). Analyze's cache holds only what an analyze
 * compiles: bytecode for propose's planning, rendering and diff in it cost every analyze about 6 % of
 * its main thread to read (docs/performance.md, issue 38).
 */
export { runReadOnly } from './read-only.js';
