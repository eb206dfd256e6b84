import { sha256 } from '../../common/hash.js';
import type { InstructionDoc } from '../../model/model.js';

/**
 * Instruction files that belong to a tool rather than to the repository's code: they are reported
 * and left out of the migration (their `notRule` says why; the plan notes it).
 *
 * - A file inside a tool's skill folder (`.claude/skills/pdf/…`, `.agents/skills/…`, `.cursor/skills/…`):
 *   a skill is loaded by its tool when the skill runs; it is not an always-on rule, and very often a
 *   third-party skill copied byte for byte into several tools' folders.
 * - A resource of a skill anywhere else (`plugins/x/skills/beads/resources/AGENTS.md`): a document in a
 *   subfolder of a skill's folder, which the skill reads when it runs and asks for it (issue 40). A skill's
 *   folder is `skills/<name>/` holding a `SKILL.md`; without one, only a `resources/` or `references/`
 *   subfolder says so. A file right in the skill's folder (its maintainer's `CLAUDE.md`) is the folder's
 *   own instructions, and a code folder named `skills` is code.
 * - A Cursor meta-rule: a rule about writing Cursor rules (`cursor_rules.mdc`, `self_improve.mdc`, or
 *   any rule whose globs name only the rules folder itself). It tells Cursor how to edit `.cursor/rules`,
 *   which Copilot never reads.
 */
const SKILL_FOLDER = /(^|\/)\.(agent|agents|claude|codex|cursor|gemini|windsurf|github|kiro|roo|cline|opencode)\/skills\//;

const META_RULE_NAMES = /(^|\/)(cursor[_-]rules?|self[_-]improve(ment)?|rule[_-]writing|writing[_-]rules|meta[_-]rules?)\.mdc?$/i;
const META_DESCRIPTION =
  /\b(creat|maintain|writ|improv|updat|add)\w*\b[^.]*\bcursor rules?\b|\bcursor rules?\b[^.]*\b(creat|maintain|writ|improv|updat)\w*/i;

export function skillFolder(rel: string): string | null {
  const m = SKILL_FOLDER.exec(rel);
  return m ? `.${m[2]}/skills/` : null;
}

/** A document in a subfolder of `…/skills/<name>/`: the skill's folder, and the subfolder's name. */
const IN_SKILL = /^((?:.*\/)?skills\/[^/]+\/)([^/]+)\/.+$/;
const RESOURCE_FOLDER = /^(?:resources|references?)$/i;

/** The skill folder a file is a resource of (with its `/`), or null. `has`: whether the repository holds a path. */
export function skillResourceOf(rel: string, has: (path: string) => boolean): string | null {
  const m = IN_SKILL.exec(rel);
  if (!m || skillFolder(rel) !== null) return null;
  return RESOURCE_FOLDER.test(m[2]!) || has(`${m[1]}SKILL.md`) ? m[1]! : null;
}

/** Why a Cursor rule is a meta-rule (about writing rules), or null. */
export function metaRuleReason(doc: InstructionDoc): string | null {
  if (doc.kind !== 'cursor-rules') return null;
  const onlyRules = doc.scope.kind === 'globs' && doc.scope.globs.every((g) => /(^|\/)\.cursor\/rules(\/|$)/.test(g));
  if (META_RULE_NAMES.test(doc.path) || (doc.description !== null && META_DESCRIPTION.test(doc.description)) || onlyRules) {
    return "a Cursor meta-rule (it tells Cursor how to write and maintain its own rule files, which Copilot does not read), not a rule for this repository's code";
  }
  return null;
}

/** Mark skill files, skill resources and Cursor meta-rules as left out (documents already left out are not touched); returns their paths. */
export function leaveOutNoise(docs: InstructionDoc[], textOf: (path: string) => string, listing: readonly string[] = []): string[] {
  const skills = docs.filter((d) => d.notRule === null && d.aliasOf === null && skillFolder(d.path) !== null);
  // Byte-identical copies of one skill file across tool folders are named together.
  const byHash = new Map<string, string[]>();
  for (const d of skills) {
    const h = sha256(Buffer.from(textOf(d.path), 'utf8'));
    byHash.set(h, [...(byHash.get(h) ?? []), d.path]);
  }
  for (const d of skills) {
    const same = byHash.get(sha256(Buffer.from(textOf(d.path), 'utf8')))!.filter((p) => p !== d.path);
    const copies = same.length > 0 ? `; byte-identical copies sit at ${same.join(', ')} (a vendored skill)` : '';
    d.notRule = `a file of a skill in ${skillFolder(d.path)} (its tool loads it when the skill runs; it is not an always-on rule)${copies}`;
  }
  const has = lazyHas(listing);
  const resources: string[] = [];
  for (const d of docs) {
    if (d.notRule !== null || d.aliasOf !== null || !d.path.includes('skills/')) continue;
    const skill = skillResourceOf(d.path, has);
    if (skill === null) continue;
    d.notRule = `a resource of the skill in ${skill} (read when the skill runs and asks for it), not instructions for its folder`;
    resources.push(d.path);
  }
  const meta: string[] = [];
  for (const d of docs) {
    if (d.notRule !== null || d.aliasOf !== null) continue;
    d.notRule = metaRuleReason(d);
    if (d.notRule !== null) meta.push(d.path);
  }
  return [...skills.map((d) => d.path), ...resources, ...meta];
}

/** Whether the listing holds a path: the set is made on the first question only. */
function lazyHas(listing: readonly string[]): (path: string) => boolean {
  let set: Set<string> | null = null;
  return (p) => (set ??= new Set(listing)).has(p);
}
