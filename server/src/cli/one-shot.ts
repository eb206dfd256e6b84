/**
 * The read-only commands await all their work before they return: once their output is written,
 * the process ends at once instead of waiting for V8 to take its heap apart (20–30 ms after an
 * analysis, more after a large one). Other commands end as Node ends them.
 */
export async function exitOnceWritten(code: number): Promise<never> {
  const written = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
  await Promise.all([written(process.stdout), written(process.stderr)]);
  process.exit(code);
}

/**
 * A reader that stops early (`copilot-onboard analyze --json | head`) closes the pipe: the rest of
 * the output is no longer wanted, which is no failure of the command. It ends quietly, as git does.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
}
