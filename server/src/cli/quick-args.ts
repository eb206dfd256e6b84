/** Taken, not imported: in cli.js, an ES module, the import would read every export of util, and MIMEType's loads a MIME parser. */
const { parseArgs } = process.getBuiltinModule('node:util');

/** An option as yargs takes it; the same table feeds the quick parser below. */
export interface OptionSpec {
  type: 'string' | 'boolean' | 'number';
  describe: string;
  default?: string | boolean | number;
  array?: boolean;
}

/**
 * Arguments read without loading yargs (it costs a CLI process about a tenth of a second), when
 * they are plainly valid for `spec`: known options only, numbers that are numbers, and at most the
 * named `positionals` (each set under its name, when given), whose values the caller checks.
 * Anything else (--help, --version, a typo) returns null, and yargs answers it as usual.
 */
export function quickArgs<T>(args: string[], spec: Record<string, OptionSpec>, positionals: readonly string[] = []): T | null {
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, o]) => [
      name,
      { type: o.type === 'boolean' ? ('boolean' as const) : ('string' as const), multiple: o.array === true },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch {
    return null;
  }
  if (parsed.positionals.length > positionals.length) return null;
  const out: Record<string, unknown> = {};
  parsed.positionals.forEach((value, i) => (out[positionals[i]!] = value));
  for (const [name, o] of Object.entries(spec)) {
    const raw = parsed.values[name];
    if (raw === undefined) {
      if (o.default !== undefined) out[name] = o.default;
      continue;
    }
    if (o.type === 'number') {
      const n = Number(raw);
      if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(n)) return null;
      out[name] = n;
    } else out[name] = raw;
  }
  return out as T;
}

/**
 * `--repo -x` as `--repo=-x`: a folder whose name starts with `-` is the value of the option before
 * it, as it is when written with `=`, unless it is one of the command line's own options (`--repo
 * --json` still reads as a missing folder). Without this the parser reads `-x` as flags, and `--repo
 * -lea` failed with "Unknown arguments: l, e, a".
 */
export function joinDashValues(args: string[], valued: readonly string[], known: readonly string[]): string[] {
  const out: string[] = [];
  const isKnown = (a: string) => {
    if (a === '--' || a === '-h') return true;
    const name = /^--(?:no-)?([^=]+)/.exec(a)?.[1];
    return name !== undefined && (known.includes(name) || name === 'help' || name === 'version');
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    if (a.startsWith('--') && valued.includes(a.slice(2)) && next !== undefined && next.startsWith('-') && !isKnown(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}
