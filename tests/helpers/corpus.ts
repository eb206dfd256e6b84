import fs from 'node:fs';
import path from 'node:path';

/** `../shared/corpus`: real repositories' instruction files, read by the corpus tests and the quality script. */
export const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpus');

/** Its repositories' folder names, sorted. */
export function corpusRepos(): string[] {
  return fs
    .readdirSync(CORPUS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
