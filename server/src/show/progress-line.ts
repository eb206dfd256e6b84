import { showLine } from './untrusted.js';

/**
 * One line on stderr with the latest progress message, shown once a step has taken over a second,
 * and only on a terminal. The timer and the drawing live in a small worker thread: the analysis
 * of a large monorepo holds the main thread's event loop for seconds, and a timer there could
 * not fire until it was over.
 */
export interface ProgressLine {
  /** The latest message, untrusted text: the line escapes what a terminal would act on. */
  update(message: string): void;
  /** Clears the line and stops drawing, while a form is on screen. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export interface LineStream {
  isTTY?: boolean;
  fd?: number;
  write(text: string): unknown;
}

const PAUSED = 0;
const SHOWN = 1;

// CommonJS, run with `eval`: no module to load, so the worker starts in a few milliseconds.
const DRAWER = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const flags = new Int32Array(workerData.flags);
let latest = null;
let due = false;
const draw = () => {
  if (!due || latest === null || Atomics.load(flags, ${PAUSED}) === 1) return;
  writeSync(workerData.fd, '\\r' + latest + '\\x1b[K');
  Atomics.store(flags, ${SHOWN}, 1);
};
setTimeout(() => { due = true; draw(); }, workerData.delayMs);
parentPort.on('message', (message) => { latest = message; draw(); });
`;

const SILENT: ProgressLine = { update() {}, pause() {}, resume() {}, stop: async () => {} };

export function progressLine(delayMs = 1000, stream: LineStream = process.stderr): ProgressLine {
  if (!stream.isTTY || stream.fd === undefined) return SILENT;
  // worker_threads loads here, on a terminal: a command whose output goes to a pipe or a file does without it.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(DRAWER, { eval: true, workerData: { delayMs, fd: stream.fd, flags: flags.buffer } });
  worker.unref();
  const clear = () => {
    if (Atomics.exchange(flags, SHOWN, 0) === 1) stream.write('\r\x1b[K');
  };
  return {
    // Made safe to show here, where it is shown: on a pipe nothing is (a message with a "…" compiled
    // the hidden-character pattern for nothing, about 2 ms of an analyze, docs/performance.md).
    update: (message) => worker.postMessage(oneLine(showLine(message))),
    pause() {
      Atomics.store(flags, PAUSED, 1);
      clear();
    },
    resume() {
      worker.postMessage(null);
      Atomics.store(flags, PAUSED, 0);
    },
    async stop() {
      Atomics.store(flags, PAUSED, 1);
      await worker.terminate();
      clear();
    },
  };
}

/** A message that fits one line of the terminal, so that `\r` can redraw it. */
function oneLine(message: string): string {
  const width = Math.max(20, (process.stderr.columns || 80) - 1);
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}
