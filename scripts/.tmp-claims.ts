import fs from 'node:fs';
import path from 'node:path';
import { scanRepository, contentDocs } from '../server/src/analysis/scan.js';
import { extractClaims } from '../server/src/analysis/claims.js';
import { CORPUS } from '../tests/helpers/corpus.js';
const pairs = JSON.parse(fs.readFileSync('tests/fixtures/judged-real/pairs.json', 'utf8')).pairs;
const only = process.argv[2];
for (const p of pairs) {
  if (p.label !== 'conflict' && !process.argv.includes('--all')) continue;
  if (only && !p.id.includes(only)) continue;
  const scan = await scanRepository(path.join(CORPUS, p.repo));
  const docs = contentDocs(scan);
  const scopes = new Map(docs.map((d) => [d.path, d.scope]));
  const claims = extractClaims(docs.flatMap((d) => d.units), (u) => scopes.get(u.path) ?? { kind: 'repo' });
  console.log(`== ${p.id} (${p.class})`);
  for (const s of [p.a, p.b]) {
    const lines = fs.readFileSync(path.join(CORPUS, p.repo, s.path), 'utf8').split(/\r?\n/);
    const line = s.line ?? lines.findIndex((l: string) => l.includes(s.text)) + 1;
    const cs = claims.filter((c) => c.path === s.path && c.line === line);
    console.log(`  ${s.path}:${line} ${JSON.stringify(scopes.get(s.path))}`);
    for (const c of cs) console.log(`    ${c.kind} ${c.topic} pos=${c.positive} pol=${c.polarity ?? ''} q=${c.qualifier ?? ''} weak=${c.weak ?? ''} sec=${c.section} label=${c.label ?? ''}`);
  }
}
