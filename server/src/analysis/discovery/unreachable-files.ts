import type { InstructionDoc } from '../../model/model.js';
import { linkedPath, pathReferences } from '../../model/links.js';

/**
 * Lines that send the reader to a file Copilot cannot reach (issue 40): one in a home folder ("Read
 * `~/Projects/agent-scripts/AGENTS.md` before making changes") or an `@` import of a document the
 * repository does not hold (`@deps/igniter/usage-rules.md` before the dependencies are fetched). Copilot
 * would read them as rules it cannot follow. A path that is only named ("binaries go to `~/.local/bin`")
 * is a rule; an `@` import of a file that is there is moved like a link (planning/render/links.ts).
 */
export const homeFolderWhy = (p: string) => `points at ${p}, in a home folder Copilot cannot read, not a rule`;
export const missingImportWhy = (p: string) => `imports ${p}, which is not in the repository, not a rule`;

/** A verb sending the reader to a file, then (in the same sentence) a path in a home folder. */
const READ_HOME = /\b(?:read|load|see|consult|follow|open|check|review|import)\b[^.;!?]*?[\s`(@]((?:~|\$HOME)\/[^\s`)'"]+)/i;
/** A document an import names: text a reader is meant to read, not `@types/node` or `@v2.1`. */
const DOCUMENT = /\.(?:md|mdc|markdown|txt|rst|adoc)$/i;

/** The lines of a document's text that send its reader to a file Copilot cannot reach, each with why. */
export function unreachableFileLines(
  doc: Pick<InstructionDoc, 'path' | 'units'>,
  resolves: (repoPath: string) => boolean,
): { line: number; text: string; names: string }[] {
  const out: { line: number; text: string; names: string }[] = [];
  for (const u of doc.units) {
    if (u.kind !== 'paragraph' && u.kind !== 'list-item') continue;
    u.lines.forEach((text, k) => {
      const home = text.includes('~/') || text.includes('$HOME/') ? READ_HOME.exec(text) : null;
      if (home) return out.push({ line: u.line + k, text, names: homeFolderWhy(home[1]!.replace(/[.,:;]+$/, '')) });
      if (!text.includes('@')) return;
      for (const r of pathReferences(text)) {
        if (r.form !== 'at') continue;
        const dest = text.slice(r.start, r.end);
        const to = linkedPath(doc.path, dest);
        // Some tools read `@path` from the repository's root (Cline's `@.clinerules/network.md`): there, it is reachable.
        const fromRoot = linkedPath('', dest);
        if (to === null || !DOCUMENT.test(to) || resolves(to) || (fromRoot !== null && resolves(fromRoot))) continue;
        return out.push({ line: u.line + k, text, names: missingImportWhy(to) });
      }
    });
  }
  return out;
}
