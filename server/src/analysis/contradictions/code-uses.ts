import type { Scope, Unit } from '../../model/model.js';
import { languagesOf } from '../scope/scope-overlap.js';
import type { ActionClaimRead, Claim } from './claim.js';

/**
 * Examples count as claims (issue 39): a code block in one file that uses a name another file's rule
 * forbids ("Do not use `tmpdirSync`", "Never import from `@x/utils` main entry point") uses it, a weak
 * claim against the rule. Only names a reader cannot take for a common word are looked for (a
 * camelCase or snake_case identifier, a dotted or scoped name), only in other files than the rule's,
 * and never in a block shown as the wrong way.
 */

/** A name no one writes by chance: an inner capital, an underscore, a dot, a slash or an `@`, six characters or more. */
const DISTINCTIVE = /^(?=[\w@$./-]{6,}$)[@\w$][\w$./-]*(?:[a-z][A-Z]|[_./])[\w$./-]*$/;
/** A ban hedged or narrowed ("when possible", "unless asked", "for new code") leaves room for an example. */
const HEDGED = /\b(?:when(?:ever)?|where|if)\s+(?:possible|practical|you can)\b|\bunless\b|\bexcept\b|\bif\s+needed\b/i;
/** "Never import from `@x/utils` main entry point": the module a rule forbids importing from. */
const IMPORT_BAN = /\b(?:never|do not|don'?t|must not|should not|avoid)\b[^.;`]*?\bimport(?:ing)?\s+(?:\w+\s+)?from\s+`([^`\s]+)`/i;
/** A line or a comment above it in the block that shows the wrong way. */
const SHOWS_WRONG = /[\u274C\u2717\u2718\u{1F6AB}\u26D4]|\b(?:wrong|bad|incorrect|don'?t|do not|never|avoid|instead of)\b/iu;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

interface Ban {
  claim: Claim;
  /** The name as written in the rule, and how a code line uses it. */
  name: string;
  use: RegExp;
}

/** The rules that forbid a distinctive name: an action "never use `x`", or a ban on importing from a module. */
function bansOf(claims: Claim[]): Ban[] {
  const bans: Ban[] = [];
  for (const c of claims) {
    if (c.positive || HEDGED.test(c.text)) continue;
    if (c.kind === 'action' && c.verb !== '' && c.topic.startsWith('act:use:') && !c.excepted && !c.weak) {
      const name = [...c.text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!.replace(/\(\)$/, '')).find((n) => n.toLowerCase() === c.value);
      if (name && DISTINCTIVE.test(name)) bans.push({ claim: c, name, use: new RegExp(`(?<![\\w$.@/-])${escape(name)}(?![\\w$/-])`) });
    } else if (c.kind === 'modal' || c.kind === 'action') {
      const m = IMPORT_BAN.exec(c.text);
      if (m && DISTINCTIVE.test(m[1]!)) {
        const q = `['"]${escape(m[1]!)}['"]`;
        bans.push({ claim: c, name: m[1]!, use: new RegExp(`\\bfrom\\s+${q}|\\brequire\\(\\s*${q}\\s*\\)|^\\s*import\\s+${q}`) });
      }
    }
  }
  return bans;
}

/**
 * A weak claim for each code line of another file that uses a forbidden name, on the ban's topic (an
 * import ban gets one of its own, `act:import:<module>`, the ban then standing on it too).
 * `previousProse`: the line before each code unit (`path:line`), which may show the block as the wrong way.
 */
export function codeUseClaims(claims: Claim[], units: Unit[], scopeOf: (u: Unit) => Scope, previousProse: Map<string, string>): Claim[] {
  const bans = bansOf(claims);
  if (bans.length === 0) return [];
  const out: Claim[] = [];
  for (const ban of bans) {
    const topic =
      ban.claim.kind === 'action' && ban.claim.topic.startsWith('act:use:') && !IMPORT_BAN.test(ban.claim.text)
        ? ban.claim.topic
        : `act:import:${ban.name.toLowerCase()}`;
    let used = false;
    for (const u of units) {
      if (u.kind !== 'code' || u.path === ban.claim.path || SHOWS_WRONG.test(previousProse.get(`${u.path}:${u.line}`) ?? '')) continue;
      for (let i = 1; i < u.lines.length; i++) {
        const text = u.lines[i]!;
        if (!ban.use.test(text)) continue;
        if (u.lines.slice(1, i + 1).some((l) => SHOWS_WRONG.test(l))) break;
        used = true;
        const scope = scopeOf(u);
        out.push(
          useClaim(ban, topic, {
            path: u.path,
            line: u.line + i,
            unit: `${u.path}:${u.line}`,
            text,
            scope,
            langs: languagesOf(text, scope),
            section: '',
            label: undefined,
          }),
        );
      }
    }
    if (used && topic !== ban.claim.topic) out.push(banClaim(ban, topic));
  }
  return out;
}

type Place = Pick<Claim, 'path' | 'line' | 'unit' | 'text' | 'scope' | 'langs' | 'section' | 'label'>;

const useClaim = (ban: Ban, topic: string, at: Place): ActionClaimRead => ({
  topic,
  topicTitle: ban.name,
  value: ban.name.toLowerCase(),
  positive: true,
  kind: 'action',
  weak: true,
  polarity: 'must',
  verb: 'use',
  qualifier: '',
  excepted: false,
  objectKind: 'identifier',
  ...at,
});

/** The import ban read as an action on its module: "never import from" it. */
const banClaim = (ban: Ban, topic: string): ActionClaimRead => ({
  ...ban.claim,
  topic,
  topicTitle: ban.name,
  value: ban.name.toLowerCase(),
  positive: false,
  kind: 'action',
  polarity: 'never',
  verb: 'import from',
  qualifier: '',
  excepted: false,
  objectKind: 'identifier',
});
