import fs from 'node:fs/promises';
import path from 'node:path';
import { baselineOf, checkText, parseBaseline, runCheck, type FailOn } from '../steps/check.js';
import { writeFile } from '../repo/safe-fs.js';
import { BadInputError } from '../common/errors.js';
import { showJson, showText } from '../show/untrusted.js';
import { toSarif } from './sarif.js';

export interface CheckArgs {
  format: 'text' | 'json' | 'sarif';
  failOn: FailOn;
  baseline?: string;
  writeBaseline?: string;
}

/**
 * `copilot-onboard check`: prints the report and returns the exit code (0 passed, 1 failed; bad
 * usage throws a BadInputError, exit 2). Writes nothing, except the baseline file the person names
 * with --write-baseline, which must lie under the working directory or the repository.
 */
export async function checkCommand(root: string, args: CheckArgs): Promise<number> {
  let baseline = new Set<string>();
  if (args.baseline !== undefined) {
    let text: string;
    try {
      text = await fs.readFile(path.resolve(args.baseline), 'utf8');
    } catch (err) {
      throw new BadInputError(`cannot read the baseline ${args.baseline}: ${(err as Error).message}`);
    }
    try {
      baseline = parseBaseline(text);
    } catch (err) {
      throw new BadInputError(`${args.baseline} is not a baseline: ${(err as Error).message}`);
    }
  }
  const report = await runCheck(root, args.failOn, baseline);
  if (args.writeBaseline !== undefined) {
    const { base, rel } = baselinePlace(args.writeBaseline, root);
    await writeFile(base, rel, `${JSON.stringify(baselineOf(report), null, 2)}\n`);
    process.stderr.write(
      `Wrote the baseline ${args.writeBaseline}: ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}.\n`,
    );
    for (const f of report.findings) f.inBaseline = true;
    report.failed = false;
  }
  if (args.format === 'sarif') process.stdout.write(`${JSON.stringify(toSarif(report), null, 2)}\n`);
  else if (args.format === 'json') process.stdout.write(`${showJson(report)}\n`);
  else process.stdout.write(`${showText(checkText(report))}\n`);
  return report.failed ? 1 : 0;
}

/** The folder the baseline is written under (the working directory, else the repository) and its path there. */
function baselinePlace(file: string, root: string): { base: string; rel: string } {
  const abs = path.resolve(file);
  for (const base of [process.cwd(), path.resolve(root)]) {
    const rel = path.relative(base, abs);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) return { base, rel: rel.split(path.sep).join('/') };
  }
  throw new BadInputError(`--write-baseline ${file}: write the baseline under the working directory or the repository`);
}
