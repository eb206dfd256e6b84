import type { Scope, Unit } from './model.js';
import { pushTo } from './collections.js';
import { languagesMeet, languagesOf, scopesOverlap } from './scope-overlap.js';
import { CLAIM_TOPICS, GENERIC_VERSION, MODALS, NEGATION_BEFORE, NOT_A_PRODUCT, VERSIONED_LANGUAGES } from './topics.js';

export interface Claim {
  topic: string;
  topicTitle: string;
  value: string;
  positive: boolean;
  path: string;
  line: number;
  text: string;
  scope: Scope;
  langs: Set<string>;
}

const REPO: Scope = { kind: 'repo' };

/** Read every line of the units for statements about the claim topics and language versions. */
export function extractClaims(units: Unit[], scopeOf: (u: Unit) => Scope = () => REPO): Claim[] {
  const claims: Claim[] = [];
  for (const unit of units) {
    if (unit.kind === 'code' || unit.kind === 'frontmatter') continue;
    const scope = scopeOf(unit);
    unit.lines.forEach((text, offset) => {
      const line = unit.line + offset;
      const at = { path: unit.path, line, text, scope, langs: languagesOf(text, scope) };
      for (const topic of CLAIM_TOPICS) {
        if (topic.context && !topic.context.test(text)) continue;
        for (const option of topic.options) {
          for (const match of text.matchAll(option.pattern)) {
            const before = text.slice(0, match.index);
            const positive = !topic.negatable || !NEGATION_BEFORE.test(before);
            claims.push({ topic: topic.id, topicTitle: topic.title, value: option.value, positive, ...at });
          }
        }
      }
      for (const lang of VERSIONED_LANGUAGES) {
        for (const match of text.matchAll(lang.pattern)) {
          const before = text.slice(0, match.index);
          if (NEGATION_BEFORE.test(before)) continue;
          claims.push({ topic: `version:${lang.name}`, topicTitle: `${lang.name} version`, value: match[1]!, positive: true, ...at });
        }
      }
      for (const match of text.matchAll(GENERIC_VERSION)) {
        const name = match[1]!;
        if (NOT_A_PRODUCT.has(name.toLowerCase())) continue;
        claims.push({ topic: `version:${name.toLowerCase()}`, topicTitle: `${name} version`, value: match[2]!, positive: true, ...at });
      }
      for (const modal of MODALS) {
        for (const match of text.matchAll(modal.pattern)) {
          const object = ruleObject(text.slice(match.index! + match[0].length));
          if (object) claims.push({ topic: `rule:${object}`, topicTitle: `"${object}"`, value: object, positive: modal.positive, ...at });
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

/** Group claims by topic and report the topics where two claims that can meet cannot both hold. */
export function findConflicts(claims: Claim[]): Conflict[] {
  const byTopic = new Map<string, Claim[]>();
  for (const c of claims) pushTo(byTopic, c.topic, c);
  const conflicts: Conflict[] = [];
  for (const [topic, list] of byTopic) {
    const isVersion = topic.startsWith('version:');
    const involved = new Set<Claim>();
    const reasons = new Set<string>();
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i]!;
        const b = list[j]!;
        // A line that names one option positively and another negatively ("pnpm, not npm") is one rule.
        if (lineKey(a) === lineKey(b) || a.text.trim() === b.text.trim() || !scopesOverlap(a.scope, b.scope) || !languagesMeet(a.langs, b.langs)) continue;
        let reason: string | null = null;
        if (a.positive && b.positive && a.value !== b.value && (!isVersion || !compatibleVersions(a.value, b.value))) {
          reason = [a.value, b.value].sort().map((v) => `"${v}"`).join(' vs ');
        } else if (a.positive !== b.positive && a.value === b.value) {
          reason = `"${a.value}" both required and ruled out`;
        }
        if (!reason) continue;
        involved.add(a).add(b);
        reasons.add(reason);
      }
    }
    if (involved.size === 0) continue;
    const ordered = [...involved].sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
    conflicts.push({ topicTitle: list[0]!.topicTitle, claims: dedupeByLine(ordered), summary: [...reasons].join('; ') });
  }
  return conflicts;
}

const lineKey = (c: Claim): string => `${c.path}:${c.line}`;

const FILLER = new Set(['the', 'a', 'an', 'to', 'any', 'your', 'our']);

/** The thing a modal rule is about: its next few words, lower-cased, without filler. */
function ruleObject(rest: string): string | null {
  const words = rest
    .split(/[.;:,!?()]/)[0]!
    .toLowerCase()
    .replace(/[`*_"']/g, '')
    .split(/\s+/)
    .filter((w) => w !== '' && !FILLER.has(w))
    .slice(0, 4);
  return words.length >= 2 ? words.join(' ') : null;
}


function dedupeByLine(claims: Claim[]): Claim[] {
  const seen = new Set<string>();
  return claims.filter((c) => (seen.has(lineKey(c)) ? false : (seen.add(lineKey(c)), true)));
}

/** Versions agree when one is a prefix of the other ("3" and "3.11"; not "3.11" and "3.12", nor "2.1" and "2.17.4"). */
function compatibleVersions(a: string, b: string): boolean {
  return a === b || b.startsWith(`${a}.`) || a.startsWith(`${b}.`);
}
