import { COPILOT_INSTRUCTIONS_PATH } from '../analysis/formats/copilot-instructions.js';
import { byCodeUnit } from '../common/collections.js';
import { sha256 } from '../common/hash.js';
import { INSTRUCTIONS_DIR } from '../analysis/formats/copilot-path-instructions.js';
import { FORMAT_IDS, FORMATS_FACTS, formatFacts } from '../model/formats.js';
import type { InstructionDoc, Scope } from '../model/model.js';
import { ownDescription } from './request-description.js';

/** Where a legacy document's rules go in Copilot's layout, and the front matter that scopes them there. */
export interface Target {
  path: string;
  scope: Scope;
  /** Legacy documents that feed it, in source order. */
  docs: InstructionDoc[];
}

export const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'rules';

/** The longest name a target file gets before `.instructions.md`: far below any file system's 255 bytes. */
export const MAX_TARGET_NAME = 64;

/**
 * A slug no longer than MAX_TARGET_NAME: a long one (a folder 30 levels deep, a 235-character
 * folder name) keeps its start and ends with 8 hex digits of its sha256, so the same path always
 * gives the same name and two long paths with the same start do not collide. The full folder
 * stays in the file's `applyTo`.
 */
export function boundedSlug(s: string): string {
  const full = slug(s);
  if (full.length <= MAX_TARGET_NAME) return full;
  const head = full.slice(0, MAX_TARGET_NAME - 9).replace(/-+$/, '');
  return `${head}-${sha256(full).slice(0, 8)}`;
}

function scopeKey(scope: Scope): string {
  if (scope.kind === 'repo') return 'repo';
  if (scope.kind === 'globs') return `globs:${scope.globs.join(',')}`;
  return `request:${scope.description ?? ''}`;
}

/** The tools' dot-folders (the registry's `dotFolder`): a rule file in one is named after the folder holding it and itself. */
const DOT_FOLDERS = [...new Set(FORMAT_IDS.map((id) => FORMATS_FACTS[id].dotFolder).filter((d) => d !== null))];
// `s`: a folder name may hold a line break.
const OWNER = new RegExp(`^(.*?)\\/?\\.(${DOT_FOLDERS.map((d) => d.slice(1)).join('|')})\\b`, 's');

/** A name for the scoped file: the rule file's own name, or the folder a nested file applies to. */
function baseName(doc: InstructionDoc): string {
  const file = doc.path.slice(doc.path.lastIndexOf('/') + 1);
  const stem = file.replace(/\.(mdc|md|txt)$/i, '');
  // A format whose one file holds the rules of the folder it sits in (the registry's `folderFile`): a
  // nested one is named after its folder. Rule files in a tool's rules folder are named after themselves.
  const isFolderFile = file === formatFacts(doc.kind)?.folderFile;
  if (isFolderFile && doc.scope.kind === 'globs') {
    const folder = doc.scope.globs[0]!.replace(/\/\*\*$/, '');
    return boundedSlug(folder);
  }
  const owner = OWNER.exec(doc.path)?.[1] ?? '';
  return boundedSlug(owner ? `${owner}-${stem}` : stem);
}

/** Where repo-wide rules go when `.github/copilot-instructions.md` cannot be written (a link, an unreadable file). */
export const REPO_WIDE_FALLBACK_NAME = 'repo-wide';
const EVERYWHERE: Scope = { kind: 'globs', globs: ['**'] };

/**
 * Group legacy documents by where they go: repo-wide ones into copilot-instructions.md, scoped ones
 * into one `.instructions.md` per scope, named after the rule or folder. Deterministic: the same
 * documents always give the same targets. With `repoWide: 'scoped'` (Copilot's own file cannot be
 * written) repo-wide rules go to `.github/instructions/repo-wide.instructions.md` with `applyTo: "**"`.
 */
export function planTargets(legacy: InstructionDoc[], existing: Map<string, Scope>, repoWide: 'copilot' | 'scoped' = 'copilot'): Target[] {
  const repo: Target = { path: COPILOT_INSTRUCTIONS_PATH, scope: { kind: 'repo' }, docs: [] };
  const scoped = new Map<string, Target>();
  const taken = new Map<string, string>(); // path -> scope key
  const described = requestDescriptions(legacy);
  for (const doc of legacy) {
    if (doc.scope.kind === 'repo' && repoWide === 'copilot') {
      repo.docs.push(doc);
      continue;
    }
    // A rule applied on request is keyed by the description its file gets, so that the file the plan
    // wrote is found again (with its scope) by the next plan.
    const scope: Scope =
      doc.scope.kind === 'repo'
        ? EVERYWHERE
        : doc.scope.kind === 'request' && doc.scope.description === null
          ? { kind: 'request', description: described.get(doc) ?? `Rules from ${doc.path}` }
          : doc.scope;
    const key = scopeKey(scope);
    const same = scoped.get(key);
    if (same) {
      same.docs.push(doc);
      continue;
    }
    const base = doc.scope.kind === 'repo' ? REPO_WIDE_FALLBACK_NAME : baseName(doc);
    let name = `${INSTRUCTIONS_DIR}/${base}.instructions.md`;
    // A name is free unless another scope took it, or an existing Copilot file there has another scope.
    const busy = (p: string) => (taken.has(p) && taken.get(p) !== key) || (existing.has(p) && scopeKey(existing.get(p)!) !== key);
    for (let n = 2; busy(name); n++) name = `${INSTRUCTIONS_DIR}/${base}-${n}.instructions.md`;
    taken.set(name, key);
    scoped.set(key, { path: name, scope, docs: [doc] });
  }
  const targets = [...scoped.values()].sort((a, b) => byCodeUnit(a.path, b.path));
  return repo.docs.length > 0 ? [repo, ...targets] : targets;
}

/**
 * The descriptions of rule files applied on request that have none, in their own words; a file whose
 * words another file shares has none here (it is "Rules from <path>"): its description keys its target.
 */
function requestDescriptions(legacy: InstructionDoc[]): Map<InstructionDoc, string> {
  const own = new Map<InstructionDoc, string>();
  for (const d of legacy) {
    if (d.scope.kind !== 'request' || d.scope.description !== null) continue;
    const words = ownDescription(d);
    if (words !== null) own.set(d, words);
  }
  const count = new Map<string, number>();
  for (const w of own.values()) count.set(w.toLowerCase(), (count.get(w.toLowerCase()) ?? 0) + 1);
  // Nor may it be a description another file already has: two scopes would become one.
  for (const d of legacy) if (d.scope.kind === 'request' && d.scope.description) count.set(d.scope.description.toLowerCase(), 2);
  for (const [d, w] of own) if (count.get(w.toLowerCase())! > 1) own.delete(d);
  return own;
}

/**
 * A YAML double-quoted string: JSON's, with U+2028 and U+2029 escaped too (JSON keeps them raw, and a
 * YAML 1.1 reader takes them for line breaks, folding a folder name `a\u2028b` into `a b`).
 */
const yamlString = (s: string): string => JSON.stringify(s).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/** Front matter for a new scoped file: `applyTo` from globs, `description` kept. */
export function frontMatterFor(target: Target): string[] {
  const lines = ['---'];
  if (target.scope.kind === 'globs') lines.push(`applyTo: ${yamlString(target.scope.globs.join(','))}`);
  const description = targetDescription(target);
  if (description) lines.push(`description: ${yamlString(description)}`);
  lines.push('---');
  return lines;
}

/** The description a scoped file gets: the first of its sources', or the one its scope was keyed by. */
export function targetDescription(target: Target): string | null {
  return target.docs.map((d) => d.description).find((d) => d) ?? (target.scope.kind === 'request' ? target.scope.description : null);
}
