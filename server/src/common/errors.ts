/** Errors the flow knows how to explain. Each maps to one contract outcome in steps/result.ts. */
export class PreconditionError extends Error {
  override name = 'PreconditionError';
}

/** Bad input from outside: a path, a damaged state file, a malformed argument. */
export class BadInputError extends Error {
  override name = 'BadInputError';
}

export class UnsafePathError extends BadInputError {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`Unsafe path "${path}": ${reason}`);
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
