import { nestedScope, type NestedScope } from '../analysis/scope/nested-scope.js';
import type { ScanResult } from '../analysis/discovery/scan.js';
import type { InstructionDoc } from '../model/model.js';
import type { PlanChoices, ScopeFate, ScopeOption } from '../model/plan.js';
import { scopeReasonWords } from './note-words.js';
import type { Note } from './notes.js';
import { folderGlob } from '../model/folder-glob.js';

/** Whether an option's folder is the one its file sits in. */
const ownFolder = (o: ScopeOption): boolean => o.path.slice(0, o.path.lastIndexOf('/')) === o.folder;

/** At most this many nested AGENTS.md files are asked about in approve's form; the others keep the tool's decision. */
export const MAX_SCOPE_FIELDS = 20;

/** The nested AGENTS.md files as the person's choices scope them, the choices offered, and a note on each decision. */
export interface ScopeChoices {
  /** The scan's documents, a nested AGENTS.md made repo-wide where so decided or chosen. */
  docs: InstructionDoc[];
  options: ScopeOption[];
  notes: Note[];
}

const option = (n: NestedScope): ScopeOption => ({
  path: n.path,
  folder: n.folder,
  decided: n.decided,
  reason: scopeReasonWords(n.folder, n.reason),
});

/**
 * Where each nested AGENTS.md that is migrated applies (analysis/scope/nested-scope.ts): the tool's decision,
 * or the other one when the person chose it. Those planned repo-wide come first in the form: they
 * depart from the AGENTS.md convention.
 */
export function scopeChoices(scan: ScanResult, choices: PlanChoices): ScopeChoices {
  const found = scan.docs
    .filter((d) => d.aliasOf === null && d.notRule === null)
    .map(nestedScope)
    .filter((n): n is NestedScope => n !== null);
  const options = [...found.filter((n) => n.decided === 'repo'), ...found.filter((n) => n.decided === 'folder')].map(option);
  const chosen = new Map<string, ScopeFate>(options.map((o) => [o.path, choices.scopes?.[o.path] ?? o.decided]));
  const docs = scan.docs.map((d) => {
    const fate = chosen.get(d.path);
    if (fate === 'repo') return { ...d, scope: { kind: 'repo' as const } };
    // A guide in a docs folder that speaks for the folder above it (analysis/scope/nested-scope.ts).
    const o = options.find((x) => x.path === d.path);
    const glob = fate === 'folder' && o !== undefined && !ownFolder(o) ? folderGlob(o.folder) : null;
    return glob ? { ...d, scope: { kind: 'globs' as const, globs: [glob] } } : d;
  });
  const notes: Note[] = [];
  // The convention's own folder, said once for all; a folder above the file is said on its own.
  const kept = options.filter((o) => o.decided === 'folder' && chosen.get(o.path) === 'folder' && ownFolder(o));
  for (const o of options.filter((x) => !kept.includes(x))) notes.push({ kind: 'nested-scope', option: o, chosen: chosen.get(o.path)! });
  if (kept.length > 0) notes.push({ kind: 'nested-scopes-kept', options: kept });
  return { docs, options, notes };
}
