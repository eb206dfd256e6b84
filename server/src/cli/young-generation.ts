/**
 * A one-shot command's peak memory is mostly V8's young generation, which doubles (up to 16 MB a
 * half) while an analysis builds what it keeps: 500 rules peaked at 83 MB, 70 MB with the young
 * generation kept at its first size, for the same CPU (the collector runs more often over less).
 * The flag is read each time the young generation would grow. Set only on the Node lines it was
 * measured on: V8 writes an error line for a flag it does not know. `serve` keeps V8's defaults.
 * V8's code cache holds the flags it was made with: the build makes it with these (cli/code-cache.ts).
 */
export function keepYoungGenerationSmall(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 20 && major <= 24) process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}
