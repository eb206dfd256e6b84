import { COPILOT_INSTRUCTIONS_PATH as COPILOT } from '../analysis/formats/copilot-instructions.js';
import { surfaceList, type Surface } from '../analysis/scope/surfaces.js';
import type { ScopeReason } from '../analysis/scope/nested-scope.js';
import type { LongFile, Note } from './notes.js';
import { folderGlob } from '../model/folder-glob.js';

/**
 * GitHub's documentation asks for short instructions: Copilot code review read only the first 4,000
 * characters of an instruction file (docs/formats.md, "Size"). A file the plan writes past that,
 * or grows while past it, gets a warning in the notes.
 */
export const COPILOT_SIZE_WARNING_CHARS = 4000;

type Words = { [K in Note['kind']]: (note: Extract<Note, { kind: K }>) => string };

/** "Copilot code review reads" or "Copilot code review and Copilot CLI read". */
const read = (readers: Surface[]): string => `${surfaceList(readers)} read${readers.length > 1 ? '' : 's'}`;

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/** "path (12.3 KB, 301 lines, 9.0 KB before)". */
const longFile = (f: LongFile): string =>
  `${f.path} (${kb(f.bytes)}, ${f.lines} lines${f.bytesBefore === null ? '' : `, ${kb(f.bytesBefore)} before`})`;

/** Lines of another assistant's listed in one note, before "and N more". */
const MAX_LISTED = 5;

/** A line as a note quotes it: trimmed, and cut at 80 characters. */
const excerpt = (line: string): string => {
  const t = line.trim();
  return t.length > 80 ? `${t.slice(0, 79)}…` : t;
};

/** The words of every kind of note, in one table. */
const WORDS: Words = {
  'copilot-blocked': (n) => {
    const where = n.fallback
      ? ` The repo-wide rules of ${n.moved.join(', ')} go to ${n.fallback} (applyTo "**"), which Copilot reads for every file.`
      : '';
    if (n.link === null)
      return `${COPILOT} ${n.why}: copilot-onboard does not write through links or over files it cannot read, so it is left as it is.${where}`;
    const through = n.through
      ? ` Copilot reads ${n.through} through it, so those rules are already Copilot's and stay where they are.`
      : '';
    return `${COPILOT} is a symlink to ${n.link}: copilot-onboard does not write through links, so it is left as it is.${through}${where} The approve form can instead replace the link with a regular file holding all of them.`;
  },
  'target-blocked': (n) =>
    `${n.target} ${n.why}, and copilot-onboard does not write through links or over files it cannot read. ${n.from.length ? `The rules of ${n.from.join(', ')} are not migrated: make it a regular text file and propose again.` : 'It is left as it is.'}`,
  'pseudo-heading': (n) =>
    `${n.at.path}:${n.at.line} "${n.source.trim()}" reads as a heading, so ${n.target} has it as the heading "${n.heading.trim()}", with its lines under it.`,
  'headings-moved': (n) =>
    `${n.path}: ${n.count === 1 ? 'one heading moves' : `${n.count} headings move`} down a level in ${n.target}, with what is under ${n.count === 1 ? 'it' : 'them'}, below the heading that names what the file is about (a "#" added to each).`,
  'siblings-merged': (n) =>
    `${n.path}:${n.line} "${n.heading.trim()}" is repeated among its sibling headings (line${n.repeats.length > 1 ? 's' : ''} ${n.repeats.join(', ')}): ${n.target} has one section with that heading, the lines of each in their order under it.`,
  'digest-kept': (n) => {
    const shown = n.lines.slice(0, MAX_LISTED).map((l) => `line ${l.line} "${excerpt(l.text)}"`);
    const more = n.lines.length > MAX_LISTED ? `, and ${n.lines.length - MAX_LISTED} more` : '';
    return `${n.path} and ${n.source} share rules in the sections ${n.sections.map((s) => `"${s}"`).join(', ')}: those are written once, and what ${n.source} adds goes after ${n.path}'s own text, under ${n.source}'s own headings. ${n.path}'s own lines there that ${n.source} does not have are kept as they are; check that they still hold: ${shown.join(', ')}${more}.`;
  },
  'twin-sections': (n) => {
    const sections = n.sections.map((s) => `"${s.text}" (line ${s.line})`).join(', ');
    const repeated = [...new Set(n.sections.map((s) => `${s.repeats.path}'s "${s.repeats.text}"`))].join(', ');
    const many = n.sections.length > 1;
    const where = n.joined ? `under the section${many ? 's' : ''} repeated` : `under its own heading${many ? 's' : ''}`;
    const shown = n.kept.slice(0, MAX_LISTED).map((l) => `line ${l.line} "${excerpt(l.text)}"`);
    const more = n.kept.length > MAX_LISTED ? `, and ${n.kept.length - MAX_LISTED} more` : '';
    const kept =
      n.kept.length === 0
        ? `none of ${many ? 'their' : 'its'} lines differs`
        : `the ${n.kept.length === 1 ? 'line that differs is' : `${n.kept.length} lines that differ are`} kept, ${where}: ${shown.join(', ')}${more}`;
    const once = n.merged === 1 ? `one of ${many ? 'their' : 'its'} lines is` : `${n.merged} of ${many ? 'their' : 'its'} lines are`;
    const reworded = n.reworded.map(
      (r) => `line ${r.line} "${excerpt(r.text)}" (kept: ${r.keptAt.path}:${r.keptAt.line} "${excerpt(r.keptAt.text)}")`,
    );
    const leadIns =
      reworded.length === 0
        ? ''
        : ` A block written once keeps the lead-in written with it; ${reworded.length === 1 ? 'this lead-in says it' : 'these lead-ins say theirs'} in other words and ${reworded.length === 1 ? 'is' : 'are'} merged into it (check that the words kept say what you mean): ${reworded.join(', ')}.`;
    return `${n.path}: its section${many ? 's' : ''} ${sections} repeat${many ? '' : 's'} most of what ${n.target} holds already (${repeated}): ${once} written once there (named as merged); ${kept}.${leadIns}`;
  },
  'repeats-once': (n) => {
    const many = n.repeats.length > 1;
    const kept = n.repeats.map((r) => (r.keptAt.path === n.path ? `${r.keptAt.line}` : `${r.keptAt.path}:${r.keptAt.line}`));
    return `${n.path}: line${many ? 's' : ''} ${n.repeats.map((r) => r.line).join(', ')} repeat${many ? '' : 's'} what the same section says before (line${many ? 's' : ''} ${kept.join(', ')}), word for word: written once in ${n.target}.`;
  },
  'restated-lines': (n) => {
    const shown = n.merged.slice(0, MAX_LISTED).map((m) => `line ${m.line} "${excerpt(m.text)}" (as ${m.keptAt.path}:${m.keptAt.line})`);
    const more = n.merged.length > MAX_LISTED ? `, and ${n.merged.length - MAX_LISTED} more` : '';
    const [count, says] = n.merged.length === 1 ? ['one line', 'says'] : [`${n.merged.length} lines`, 'say'];
    const rest =
      n.kept === 0
        ? 'nothing of it is left to write'
        : `its other ${n.kept === 1 ? 'line is' : `${n.kept} lines are`} written, under its own headings; approve's first round can leave the whole file out`;
    return `${n.path}: ${count} ${says} what ${n.target} says already, in other words, and ${n.merged.length === 1 ? 'is' : 'are'} not written again (named as merged, each with the line it restates): ${shown.join('; ')}${more}; ${rest}.`;
  },
  'other-assistant': (n) => {
    const shown = n.lines.slice(0, MAX_LISTED).map((l) => `line ${l.line} "${excerpt(l.text)}" (${l.names})`);
    const more = n.lines.length > MAX_LISTED ? `, and ${n.lines.length - MAX_LISTED} more` : '';
    const [count, it, they] = n.lines.length === 1 ? ['one line is', 'it', 'It is'] : [`${n.lines.length} lines are`, 'them', 'They are'];
    const head = `${n.path}: ${count} written for or about another assistant, or no rule at all, and Copilot would read ${it} as its own: ${shown.join('; ')}${more}.`;
    if (n.fate === 'rewrite')
      return `${head} As you chose, ${they.toLowerCase()} rewritten for Copilot where the tool can (the diff shows how); the others are migrated as written.`;
    if (n.fate === 'leave_out')
      return `${head} As you chose, ${they.toLowerCase()} left out of Copilot's files; the file itself keeps ${it} while you keep it.`;
    if (!n.offered)
      return `${head} ${they} migrated as written: ${n.lines.length === 1 ? 'it stays' : 'they stay'} inside a block a tool manages, which it would write back.`;
    return `${head} ${they} migrated as written; approve's first round can ${n.rewritable > 0 ? `rewrite ${it} for Copilot or ` : ''}leave ${it} out instead.`;
  },
  'nested-scope': (n) => {
    const [o, glob] = [n.option, folderGlob(n.option.folder) ?? `${n.option.folder}/**`];
    const where =
      n.chosen === 'repo' ? `applies to the whole repository (its rules go to ${COPILOT})` : `applies to ${glob} only (applyTo "${glob}")`;
    if (n.chosen !== o.decided)
      return `${o.path} ${where}, as you chose; the tool would have ${o.decided === 'repo' ? 'made it repo-wide' : `kept it to ${glob}`}: ${o.reason}.`;
    return `${o.path} ${where}: ${o.reason}. Approve's first round can ${o.decided === 'repo' ? `apply it to ${glob} only` : 'make it repo-wide'} instead.`;
  },
  'nested-scopes-kept': (n) =>
    `${n.options.length === 1 ? 'A nested AGENTS.md applies' : `${n.options.length} nested AGENTS.md files apply`} to its folder only, as the AGENTS.md convention says: ${n.options.map((o) => `${o.path} (${o.reason})`).join('; ')}. Approve's first round can make ${n.options.length === 1 ? 'it' : 'each'} repo-wide instead.`,
  'list-ended': (n) =>
    `${n.at.path}:${n.at.line} "${n.line.trim()}" starts indented, so ${n.target} has a comment line before it that ends the list above: it would otherwise read as part of that list's last item.`,
  'already-organised': (n) => `${n.target} is already organised in sections; nothing to change.`,
  'heading-emptied': (n) =>
    `${n.at.path}:${n.at.line} "${excerpt(n.text)}" is not written in ${n.target}: every line under it is left out of it (see the notes and your choices), and a heading with nothing under it says nothing.`,
  'managed-kept': (n) =>
    `${n.at.path}:${n.at.line} "${excerpt(n.text)}" stays in Copilot's files although it is ${n.why}: it is inside a block a tool manages, which the plan writes byte for byte (that tool would put the line back on its next run).`,
  'managed-stays': (n) =>
    `${n.path}:${n.start}-${n.end} (from "${excerpt(n.marker)}" to its end marker) is a block a tool writes and rewrites: it stays in ${n.path} and is not copied into Copilot's files, where that tool would not keep it current. ${n.path} is kept for it (removing it or making it a pointer is not offered); to have the block in a Copilot file, set the tool to write it there.`,
  'pointer-line': (n) =>
    `${n.at.path}:${n.at.line} "${excerpt(n.text)}" points at ${n.target}, where the file's other lines now go: it is not copied there (it would point at itself).`,
  'links-unresolved': (n) => {
    const shown = n.links
      .slice(0, MAX_LISTED)
      .map(
        (l) =>
          `line ${l.line} "${excerpt(l.dest)}"${l.written ? ` (written "${excerpt(l.written)}", the same path from ${n.target})` : ''}`,
      );
    const more = n.links.length > MAX_LISTED ? `, and ${n.links.length - MAX_LISTED} more` : '';
    const one = n.links.length === 1;
    const kept = n.links.filter((l) => !l.written).length;
    const how =
      kept === n.links.length
        ? `so ${n.target} has ${one ? 'it' : 'them'} as written (${one ? 'it is' : 'they are'} not rewritten to lead elsewhere)`
        : kept === 0
          ? `so ${n.target} names the same ${one ? 'path' : 'paths'} from its own folder, as ${one ? 'it starts' : 'they start'} with ./ or ../`
          : `so ${n.target} has those as written, and names the same path from its own folder for those that start with ./ or ../`;
    return `${n.path}: ${one ? 'one link' : `${n.links.length} links`} did not lead to a file in the repository where ${one ? 'it was' : 'they were'} written, ${how}: ${shown.join('; ')}${more}.`;
  },
  'link-replaced': (n) =>
    `${n.target} is a symlink to ${n.link}; as you chose, the link itself is replaced by a regular file with the rules (the backup keeps the link, and rollback puts it back). ${n.shown} is not changed.`,
  option: (n) => n.option.note,
  'too-long': (n) => {
    const files =
      n.files.length === 1
        ? `${longFile(n.files[0]!)} is`
        : `${n.files.length} Copilot files are: ${n.files.map(longFile).join('; ')}; each is`;
    return `Warning: ${files} over ${COPILOT_SIZE_WARNING_CHARS} characters after the migration. GitHub's documentation asks for short instructions, and Copilot code review has read only the first ${COPILOT_SIZE_WARNING_CHARS} characters of an instruction file: consider moving rules for parts of the code into scoped .instructions.md files, and linking to documentation instead of copying it.`;
  },
  'front-matter-lost': (n) =>
    `${n.path}: its front matter ${n.keys.map((k) => `"${k}"`).join(', ')} is not carried into ${n.target}, which has no place for it; the file keeps it while you keep the file.`,
  'globs-rewritten': (n) =>
    `${n.path}: ${n.rewrites.map((r) => `"${r.from}" is written "${r.to}"`).join(', ')} in ${n.target}'s applyTo. The file's own tool matches a glob without a slash at any depth; GitHub matches applyTo against the path from the repository root, where "${n.rewrites[0]!.from}" would match only at the root.`,
  'dropped-still-said': (n) =>
    `${n.at.path}:${n.at.line} is dropped from Copilot's files, but ${n.at.path} is kept and still says "${n.text.trim()}"${n.readers.length > 0 ? `, and ${read(n.readers)} it too` : ''}: remove the file, or edit that line, to settle the contradiction everywhere.`,
  'not-rules': (n) =>
    n.asked
      ? `${n.path} is ${n.why}; as you chose, it is migrated all the same.`
      : `${n.path} is ${n.why}; it is reported, not migrated${n.optional ? ' (the approve form can migrate it all the same)' : ''}.`,
  'copy-swapped': (n) => {
    const undone =
      n.fate === 'remove' || n.fate === 'pointer'
        ? ` Your choice to ${n.fate === 'remove' ? 'remove it' : 'replace it with a pointer'} does not apply: a file left out as a copy is kept as it is.`
        : '';
    return `As you chose, ${n.chosen} is migrated instead of ${n.was}; ${n.was} is left out as the copy.${undone}`;
  },
  'copy-swap-ignored': (n) =>
    `${n.path}: your choice to migrate it instead of ${n.keptPath} is not applied, because you chose ${n.chosen} for that already; ${n.path} is left out as a copy of ${n.chosen}.`,
  copy: (n) =>
    n.diff === ''
      ? `${n.path} holds the same rules as ${n.keptPath} (front matter aside): nothing of it is lost.`
      : `The differences between ${n.keptPath} (migrated) and its copy ${n.path} (left out), as one diff; carry over what you want to keep by hand:\n${n.diff}`,
  'synced-source': (n) => {
    const said =
      n.readers.length > 0
        ? ` ${read(n.readers)} ${n.path} as it is.`
        : ` No Copilot surface reads ${n.path}: carry over by hand what ${n.keptPath} should say.`;
    return `${n.keptPath} is kept as the hand-written distillation of ${n.path}, as it says; the plan does not merge ${n.path} into it.${said}`;
  },
  alias: (n) => `${n.path} points at ${n.aliasOf}; its rules are read once, from ${n.aliasOf}.`,
  said: (n) => n.text,
  'on-request': (n) => `${n.path} has a description and no applyTo: Copilot applies it on request, not automatically.`,
  'nothing-found': () => 'No instruction files were found; there is nothing to migrate.',
  'conflicts-kept': () =>
    'Contradicting rules are kept and marked unless you choose which one stands in the approve form: the plan never picks a winner.',
  'legacy-kept': (n) => {
    const after = n.later.length > 0 ? `; ${surfaceList(n.later)} will see its rules only after the migration, from ${n.target}` : '';
    if (n.readers.length === 0) return `${n.path} is kept for its own tool: no Copilot surface reads it today${after}.`;
    return `${n.path} is read today by ${surfaceList(n.readers)}${after}. If you keep it, its rules load twice there (from it and from ${n.target}).`;
  },
  'nothing-moved': (n) =>
    `${n.path} is kept as it is: none of its lines go to Copilot's files under your choices, so no file is written for it.`,
  'link-kept': (n) => `${COPILOT} is a symlink to ${n.link}; keeping it leaves repo-wide rules of other files in their own Copilot file.`,
  'link-shown-kept': (n) =>
    n.replaced
      ? `${n.path} is kept as it is: its rules are copied into ${COPILOT}, which stops being a link to it.`
      : `${n.path} is kept as it is: ${COPILOT} links to it, so Copilot reads its rules through the link.`,
  'left-out': (n) => `${n.path} is left out of the migration: it is ${n.why}. Choose to migrate it if its rules are yours.`,
};

/** Why the tool scoped a nested AGENTS.md as it did, in words. */
export function scopeReasonWords(folder: string, r: ScopeReason): string {
  switch (r.kind) {
    case 'read-first':
      return `it says to read it first (line ${r.line}: "${excerpt(r.text)}") and names nothing of ${folder}/`;
    case 'whole-project':
      return `it speaks of the whole repository (line ${r.line}: "${excerpt(r.text)}") and names nothing of ${folder}/`;
    case 'names-folder':
      return `it names its own folder (line ${r.line}: "${excerpt(r.text)}")`;
    case 'package-folder':
      return `it sits in a package or source folder, under ${r.segment}/`;
    case 'own-part':
      return `it says what part of the repository it is about (line ${r.line}: "${excerpt(r.text)}")`;
    case 'convention':
      return 'nothing in it says it is for the whole repository';
    case 'docs-of-code':
      return `it is kept in a documentation folder but speaks of the code around it, not of the docs (line ${r.line}: "${excerpt(r.text)}")`;
  }
}

/** A note in words, as the plan and its options carry it. */
export function noteText(note: Note): string {
  return (WORDS[note.kind] as (n: Note) => string)(note);
}
