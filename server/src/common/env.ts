/**
 * A number setting from the environment (a timeout, an idle time): the variable's value when it is
 * a finite number above zero, else the default. Unset, empty, zero, negative or not a number all
 * give the default, so a slip in a setting never turns a wait off.
 */
export function positiveNumberFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
