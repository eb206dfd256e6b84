import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCommonJs } from './code-cache.js';
import type * as ReadOnly from './read-only.js';

/**
 * The read-only commands as the build ships them (scripts/bundle.mjs): this module runs
 * `chunks/read-only-cli.cjs` (cli/read-only.ts and all it imports, as CommonJS) with its code cache
 * beside it. The build copies it into cli.js, which starts the read-only commands, and makes it
 * `chunks/read-only-cli.js` for the rest of the CLI (their forms only yargs reads). It only works
 * there: from the sources, cli.ts imports cli/read-only.ts itself.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const chunks = path.basename(here) === 'chunks' ? here : path.join(here, 'chunks');
const loaded = loadCommonJs<typeof ReadOnly>(path.join(chunks, 'read-only-cli.cjs'), path.join(chunks, 'read-only-cli.cache'));

export const { runReadOnly, runTraces } = loaded.exports;
/** Whether V8 took the code cache (the tests and the bench check it). */
export const codeCache = loaded.cache;
