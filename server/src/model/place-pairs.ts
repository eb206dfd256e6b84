/** A place a problem names: a file and a line. Structural, so that a module holding no schema can use it (problem.ts loads zod). */
interface Place {
  path: string;
  line: number;
}

/** The key of a pair of places, in either order: a pair problems already hold is not found again. */
export const pairKey = (a: Place, b: Place): string => [`${a.path}:${a.line}`, `${b.path}:${b.line}`].sort().join('|');

/** Every pair of places the problems hold, each as its {@link pairKey}. */
export function heldPairs(problems: readonly { locations: readonly Place[] }[]): Set<string> {
  const held = new Set<string>();
  for (const p of problems)
    for (let i = 0; i < p.locations.length; i++)
      for (let j = i + 1; j < p.locations.length; j++) held.add(pairKey(p.locations[i]!, p.locations[j]!));
  return held;
}
