// Writes the JSON Schemas of the state and trace files into .copilot-state/schemas/, generated from
// the zod schemas in server/src/state/schema.ts (run after `npm run build`). `--check` only compares.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PUBLISHED_SCHEMAS } from '../server/dist/state/schema.js';

const dir = path.resolve(new URL('..', import.meta.url).pathname, '.copilot-state/schemas');
const check = process.argv.includes('--check');
const stale = [];
fs.mkdirSync(dir, { recursive: true });
for (const [name, schema] of Object.entries(PUBLISHED_SCHEMAS)) {
  const json = { $id: `copilot-onboard/${name}`, title: name.replace('.schema.json', ''), ...z.toJSONSchema(schema, { io: 'output' }) };
  const text = `${JSON.stringify(json, null, 2)}\n`;
  const file = path.join(dir, name);
  if (check) {
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) stale.push(name);
  } else {
    fs.writeFileSync(file, text);
  }
}
if (check && stale.length > 0) {
  console.error(`Out of date in .copilot-state/schemas/: ${stale.join(', ')}. Run npm run schemas.`);
  process.exit(1);
}
console.log(
  check ? 'JSON Schemas are up to date.' : `Wrote ${Object.keys(PUBLISHED_SCHEMAS).length} JSON Schemas to .copilot-state/schemas/.`,
);
