import type { LineRef } from './rendered.js';

/** Values by source line: a map from path to a map from line number, so no key is a joined string. */
export class LineMap<V> {
  private readonly byPath = new Map<string, Map<number, V>>();
  /** The lines in the order they were first set. */
  private readonly order: LineRef[] = [];

  constructor(entries: Iterable<readonly [LineRef, V]> = []) {
    for (const [at, value] of entries) this.set(at, value);
  }

  get size(): number {
    return this.order.length;
  }

  get(at: LineRef): V | undefined {
    return this.byPath.get(at.path)?.get(at.line);
  }

  has(at: LineRef): boolean {
    return this.byPath.get(at.path)?.has(at.line) ?? false;
  }

  set(at: LineRef, value: V): void {
    let lines = this.byPath.get(at.path);
    if (!lines) this.byPath.set(at.path, (lines = new Map()));
    if (!lines.has(at.line)) this.order.push({ path: at.path, line: at.line });
    lines.set(at.line, value);
  }

  /** The values in the order their lines were first set. */
  values(): V[] {
    return this.order.map((at) => this.get(at)!);
  }
}
