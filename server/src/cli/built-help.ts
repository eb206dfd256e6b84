import { pathToFileURL } from 'node:url';
import { CLI_PATH } from '../package-root.js';

/**
 * `--help` as yargs prints it, without loading yargs: the build runs `--help` through yargs and keeps
 * its output (scripts/bundle.mjs, server/dist/chunks/help.js). That text is English at 80 columns,
 * so it is used only where yargs would print the same: a locale yargs reads as English (it takes
 * LC_ALL, LC_MESSAGES, LANG, LANGUAGE, else en_US; C and POSIX have no translation), and no terminal
 * narrower than 80 columns. Otherwise, or without that file (an unbundled build), null: yargs answers.
 */
export async function builtHelp(): Promise<string | null> {
  const env = process.env;
  const locale = (env.LC_ALL || env.LC_MESSAGES || env.LANG || env.LANGUAGE || 'en_US').replace(/[.:].*/, '');
  if (!(locale === 'C' || locale === 'POSIX' || locale === 'en' || locale.startsWith('en_'))) return null;
  const columns = process.stdout.columns;
  if (columns !== undefined && columns < 80) return null;
  if (CLI_PATH === null) return null;
  try {
    const text = ((await import(new URL('chunks/help.js', pathToFileURL(CLI_PATH)).href)) as { default?: unknown }).default;
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}
