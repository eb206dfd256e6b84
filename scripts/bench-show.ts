// node --import tsx scripts/bench-show.ts: the time showText, showLine, showJson and hiddenIn take over
// 1 MB of text (the median of 15 runs, after 3 to warm up), ASCII and not. SHOW_MODULE names another
// copy of server/src/show/untrusted.ts to compare before and after (`git show REV:server/src/show/untrusted.ts`
// into the same folder, with its imports). Figures are printed, never asserted: see docs/performance.md.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Show = typeof import('../server/src/show/untrusted.js');
const file = process.env.SHOW_MODULE ?? path.resolve(import.meta.dirname, '../server/src/show/untrusted.ts');
const { showText, showLine, showJson, hiddenIn } = (await import(pathToFileURL(path.resolve(file)).href)) as Show;

const rule = (i: number) => `- Rule ${i}: use pnpm for all package management, run vitest before every commit (see docs/${i}.md).\n`;
let ascii = '';
for (let i = 0; ascii.length < 1_000_000; i++) ascii += rule(i);
/** About one character in twelve is not ASCII: accents, a dash, Japanese, emoji with a skin tone. */
const mixed = ascii
  .replace(/use pnpm/g, 'us\u00e9 p\u00f1pm \u2014 \u65e5\u672c\u8a9e \u2705')
  .replace(/docs/g, 'd\u00f3cs\u{1f44d}\u{1f3fd}');
const japanese = '\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3067\u3059\u3002'.repeat(90_000);

function time(name: string, run: () => unknown): void {
  for (let i = 0; i < 3; i++) run();
  const ms: number[] = [];
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  console.log(`${name.padEnd(36)} ${ms[7]!.toFixed(2).padStart(7)} ms`);
}

for (const [label, text] of [
  ['ASCII', ascii],
  ['mixed', mixed],
  ['Japanese', japanese],
] as const) {
  const lines = text.split('\n');
  time(`showText, 1 MB ${label}`, () => showText(text));
  time(`showLine, 1 MB ${label}`, () => showLine(text));
  time(`showJson, 1 MB ${label}`, () => showJson({ text }));
  time(`hiddenIn per line, 1 MB ${label}`, () => lines.forEach(hiddenIn));
}
