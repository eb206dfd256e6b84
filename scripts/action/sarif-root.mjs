// Code scanning reads each SARIF URI against the root of the repository. `check --repo DIR` writes
// them relative to DIR; when DIR is a folder inside the checkout (a monorepo's package), the action
// puts that folder in front of every URI, so that each alert lands on the file it is about.
//
// argv[2]: the SARIF file (rewritten in place); argv[3]: the folder, relative to the checkout's root,
// as `git rev-parse --show-prefix` gives it (ending with a slash).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

export function underFolder(sarif, prefix) {
  const folder = prefix.replace(/^\/+/, '').replace(/\/*$/, '/');
  // As check writes each path (encodeURI), so that folder and path read alike.
  const encoded = encodeURI(folder);
  const visit = (node) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const at = node.artifactLocation;
      if (at && typeof at.uri === 'string' && at.uriBaseId === '%SRCROOT%' && !/^[a-z]+:/i.test(at.uri)) at.uri = `${encoded}${at.uri}`;
      for (const value of Object.values(node)) visit(value);
    }
  };
  visit(sarif.runs);
  return sarif;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, prefix] = process.argv.slice(2);
  const sarif = underFolder(JSON.parse(fs.readFileSync(file, 'utf8')), prefix ?? '');
  fs.writeFileSync(file, `${JSON.stringify(sarif, null, 2)}\n`);
}
