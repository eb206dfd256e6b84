import { parseArgs } from 'node:util';

/** An option as yargs takes it; the same table feeds the quick parser below. */
export interface OptionSpec {
  type: 'string' | 'boolean' | 'number';
  describe: string;
  default?: string | boolean | number;
  array?: boolean;
}

/**
 * Arguments read without loading yargs (it costs a CLI process about a tenth of a second), when
 * they are plainly valid for `spec`: known options only, no positionals, numbers that are numbers.
 * Anything else (--help, --version, a typo) returns null, and yargs answers it as usual.
 */
export function quickArgs<T>(args: string[], spec: Record<string, OptionSpec>): T | null {
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, o]) => [name, { type: o.type === 'boolean' ? ('boolean' as const) : ('string' as const), multiple: o.array === true }]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch {
    return null;
  }
  if (parsed.positionals.length > 0) return null;
  const out: Record<string, unknown> = {};
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
