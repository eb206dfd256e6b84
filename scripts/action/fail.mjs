// How a script of the action fails: one `::error` line the runner shows as the job's error, then exit 2.
// The message is escaped as the runner's workflow commands want, so it stays one line of ours.

/** Prints `err` as an `::error` titled `title` and ends the process with exit code 2. */
export function failWith(title, err) {
  const message = String(err instanceof Error ? err.message : err)
    .replace(/%/g, '%25')
    .replace(/\r/g, '%0D')
    .replace(/\n/g, '%0A');
  console.log(`::error title=${title}::${message}`);
  process.exit(2);
}
