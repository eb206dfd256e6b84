import { chmodSync } from 'node:fs';
chmodSync(new URL('../server/dist/cli.js', import.meta.url), 0o755);
