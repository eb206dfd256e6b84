import { basename, folderOf, folderScope, markdownFormat } from './markdown-format.js';

/** `.roorules`: Roo Code's one flat file of rules for the folder it sits in, without front matter. */
export const roorules = markdownFormat({
  id: 'roorules',
  detect: (rel) => basename(rel) === '.roorules',
  meta: (rel) => folderScope(folderOf(rel)),
});
