import type { Scope, Unit } from '../../model/model.js';
import type { FoundContradiction } from '../../model/problem.js';
import { extractClaims } from './claims.js';
import { findConflicts } from './conflicts.js';

/** The contradictions among rules: the claims read (claims.ts), the conflicts between them (conflicts.ts), each a problem with its topic and sides as data. */
export function findContradictions(units: Unit[], scopeOf?: (u: Unit) => Scope): FoundContradiction[] {
  return findConflicts(extractClaims(units, scopeOf)).map((c) => ({
    type: 'contradiction' as const,
    kind: c.kind,
    description: contradictionDescription(c.topicTitle, c.summary),
    locations: c.claims.map((cl) => ({ path: cl.path, line: cl.line })),
    sides: c.sides,
    ...(c.mentions.length > 0 ? { mentions: c.mentions.map((m) => ({ path: m.claim.path, line: m.claim.line, side: m.side })) } : {}),
    topic: c.topicTitle,
    said: c.summary,
  }));
}

/** How a contradiction's problem says what it is about: its topic (never with a colon), then what each side says. */
export const contradictionDescription = (topic: string, said: string): string => `Contradicting rules about ${topic}: ${said}`;
