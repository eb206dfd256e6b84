import type { Unit } from './model.js';
import { CLAIM_TOPICS, NEGATION_BEFORE, VERSIONED_LANGUAGES } from './topics.js';

export interface Claim {
  topic: string;
  topicTitle: string;
  value: string;
  positive: boolean;
  path: string;
  line: number;
  text: string;
}

/** Read every line of the units for statements about the claim topics and language versions. */
export function extractClaims(units: Unit[]): Claim[] {
  const claims: Claim[] = [];
  for (const unit of units) {
    if (unit.kind === 'code' || unit.kind === 'frontmatter') continue;
    unit.lines.forEach((text, offset) => {
      const line = unit.line + offset;
      for (const topic of CLAIM_TOPICS) {
        if (topic.context && !topic.context.test(text)) continue;
        for (const option of topic.options) {
          for (const match of text.matchAll(option.pattern)) {
            const before = text.slice(0, match.index);
            const positive = !topic.negatable || !NEGATION_BEFORE.test(before);
            claims.push({ topic: topic.id, topicTitle: topic.title, value: option.value, positive, path: unit.path, line, text });
          }
        }
      }
      for (const lang of VERSIONED_LANGUAGES) {
        for (const match of text.matchAll(lang.pattern)) {
          const before = text.slice(0, match.index);
          if (NEGATION_BEFORE.test(before)) continue;
          claims.push({ topic: `version:${lang.name}`, topicTitle: `${lang.name} version`, value: match[1]!, positive: true, path: unit.path, line, text });
        }
      }
    });
  }
  return claims;
}

export interface Conflict {
  topicTitle: string;
  claims: Claim[];
  summary: string;
}

/** Group claims by topic and report the topics whose claims cannot all hold. */
export function findConflicts(claims: Claim[]): Conflict[] {
  const byTopic = new Map<string, Claim[]>();
  for (const c of claims) byTopic.set(c.topic, [...(byTopic.get(c.topic) ?? []), c]);
  const conflicts: Conflict[] = [];
  for (const [topic, list] of byTopic) {
    const isVersion = topic.startsWith('version:');
    const positives = list.filter((c) => c.positive);
    const negatives = list.filter((c) => !c.positive);
    const positiveValues = distinct(positives.map((c) => c.value));
    const clashingValues = isVersion ? incompatibleVersions(positiveValues) : positiveValues;
    const involved = new Set<Claim>();
    const reasons: string[] = [];
    // A line that names one option positively and another negatively ("pnpm, not npm") is one
    // consistent rule, so clashes are counted between lines, not within one.
    if (clashingValues.length > 1 && distinct(positives.filter((c) => clashingValues.includes(c.value)).map(lineKey)).length > 1) {
      positives.filter((c) => clashingValues.includes(c.value)).forEach((c) => involved.add(c));
      reasons.push(clashingValues.map((v) => `"${v}"`).join(' vs '));
    }
    for (const neg of negatives) {
      const opposed = positives.filter((p) => p.value === neg.value && lineKey(p) !== lineKey(neg));
      if (opposed.length === 0) continue;
      opposed.forEach((c) => involved.add(c));
      involved.add(neg);
      reasons.push(`"${neg.value}" both required and ruled out`);
    }
    if (involved.size === 0) continue;
    const ordered = [...involved].sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
    conflicts.push({ topicTitle: list[0]!.topicTitle, claims: dedupeByLine(ordered), summary: distinct(reasons).join('; ') });
  }
  return conflicts;
}

const lineKey = (c: Claim): string => `${c.path}:${c.line}`;

function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function dedupeByLine(claims: Claim[]): Claim[] {
  const seen = new Set<string>();
  return claims.filter((c) => (seen.has(lineKey(c)) ? false : (seen.add(lineKey(c)), true)));
}

/** Versions clash unless one is a prefix of the other ("3" and "3.11" agree; "3.11" and "3.12" do not). */
function incompatibleVersions(values: string[]): string[] {
  const clash = new Set<string>();
  for (const a of values) {
    for (const b of values) {
      if (a !== b && !b.startsWith(`${a}.`) && !a.startsWith(`${b}.`)) {
        clash.add(a);
        clash.add(b);
      }
    }
  }
  return values.filter((v) => clash.has(v));
}
