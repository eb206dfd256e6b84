import { CHECK_RULES, type CheckFinding, type CheckReport, type CheckRule } from '../steps/check.js';
import type { Certainty } from '../model/problem.js';
import { REPOSITORY_URL } from '../package-root.js';
import { VERSION } from '../version.js';

/**
 * The check report as SARIF 2.1.0, for GitHub code scanning (upload-sarif). One result per finding,
 * at its first location; the other locations are related locations, each linked from the message
 * as `[path:line](id)` (GitHub links only what the message embeds). The level follows the rule and
 * the certainty together (LEVELS): only a contradiction or a file that could not be read can be an
 * error, so that a ruleset blocking on code-scanning errors blocks on what fails `check` by default.
 */

interface RuleText {
  name: string;
  short: string;
  full: string;
  /** The heading in docs/ci.md (GitHub's anchor). */
  anchor: string;
}

const RULES: Record<CheckRule, RuleText> = {
  contradiction: {
    name: 'Contradiction',
    short: 'Two instruction files (or two places in one) say opposite things.',
    full: 'Two rules that apply to the same files give opposite instructions (use one tool or another, do or do not). An assistant reading both follows one at random. Decide which stands and remove the other.',
    anchor: 'copilot-onboardcontradiction',
  },
  duplicate: {
    name: 'Duplicate',
    short: 'The same rule is written in more than one place.',
    full: 'A rule is repeated, word for word or reworded, in several instruction files or sections. Copies drift apart over time; keep one.',
    anchor: 'copilot-onboardduplicate',
  },
  drift: {
    name: 'Drift',
    short: "A legacy instruction file says something Copilot's files do not.",
    full: "A legacy instruction file (CLAUDE.md, AGENTS.md, .cursor/rules, ...) standing beside Copilot's instruction files holds rule lines that none of Copilot's files holds, so Copilot does not follow them. Carry the rule over (run propose) or remove it.",
    anchor: 'copilot-onboarddrift',
  },
  'would-change': {
    name: 'WouldChange',
    short: 'Onboarding is not current: propose would create, change or remove a file.',
    full: "If copilot-onboard propose ran now, its plan would create, change or remove a file: Copilot's layout is not up to date with the instruction files. The alert is shown at the source the new file would be made from (a file to create does not exist yet), or at the first line that would change.",
    anchor: 'copilot-onboardwould-change',
  },
  ambiguity: {
    name: 'Ambiguity',
    short: 'An instruction file holds text a reader may not see (hidden characters), or imports more than is read.',
    full: 'An instruction file holds characters that display as nothing or as something else (zero-width, bidirectional controls), or more @path import lines than copilot-onboard follows (200 per file, 1,000 in all). A person reviewing it may not see what the assistant reads.',
    anchor: 'copilot-onboardambiguity',
  },
  unread: {
    name: 'Unread',
    short: 'An instruction file could not be read, so nothing in it was checked.',
    full: 'An instruction file is too large (over 1 MiB), binary, not valid UTF-8 (or named so), a link leaving the repository, not a regular file, or cannot be opened. copilot-onboard did not read it, so it cannot say what it holds, but an assistant may still read it. Make it readable, or remove it.',
    anchor: 'copilot-onboardunread',
  },
};

export type SarifLevel = 'error' | 'warning' | 'note';

/**
 * The level of a finding, by its rule and certainty: a contradiction is an error when high, a
 * warning when medium; duplicates, drift and hidden text are warnings (notes when low); a file
 * propose would change is a note (the onboarding is behind, nothing is wrong yet); a file that could
 * not be read is an error, as it fails the check like a contradiction.
 */
export const LEVELS: Record<CheckRule, Record<Certainty, SarifLevel>> = {
  contradiction: { high: 'error', medium: 'warning', low: 'note' },
  duplicate: { high: 'warning', medium: 'warning', low: 'note' },
  drift: { high: 'warning', medium: 'warning', low: 'note' },
  'would-change': { high: 'note', medium: 'note', low: 'note' },
  ambiguity: { high: 'warning', medium: 'warning', low: 'note' },
  unread: { high: 'error', medium: 'error', low: 'warning' },
};

export const ruleId = (rule: CheckRule): string => `copilot-onboard/${rule}`;

/**
 * Where the docs are, at this version: the project's own repository when package.json names one on
 * GitHub (`https://github.com/OWNER/NAME/blob/vVERSION/docs/`), else null and no link is made (a
 * link to a page that does not exist helps nobody).
 */
export function docsBase(repositoryUrl: string | null = REPOSITORY_URL, version = VERSION): string | null {
  return repositoryUrl === null ? null : `${repositoryUrl}/blob/v${version}/docs/`;
}

/** Text for a SARIF message: a literal `[`, `]` or `\` is escaped (SARIF 3.11.6), so untrusted text makes no link. */
export function sarifText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

export function toSarif(report: CheckReport, options: { repositoryUrl?: string | null } = {}): Record<string, unknown> {
  const base = docsBase(options.repositoryUrl === undefined ? REPOSITORY_URL : options.repositoryUrl);
  const location = (l: { path: string; line: number }, id?: number) => ({
    ...(id === undefined ? {} : { id }),
    physicalLocation: { artifactLocation: { uri: encodeURI(l.path), uriBaseId: '%SRCROOT%' }, region: { startLine: Math.max(1, l.line) } },
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'copilot-onboard',
            semanticVersion: VERSION,
            ...(base ? { informationUri: `${base}ci.md` } : {}),
            rules: CHECK_RULES.map((r) => ({
              id: ruleId(r),
              name: RULES[r].name,
              shortDescription: { text: RULES[r].short },
              fullDescription: { text: RULES[r].full },
              help: { text: helpText(r, base), markdown: helpText(r, base, true) },
              ...(base ? { helpUri: `${base}ci.md#${RULES[r].anchor}` } : {}),
              defaultConfiguration: { level: LEVELS[r].high },
              properties: { tags: ['copilot-instructions'] },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The root of the repository checked.' } } },
        results: report.findings.map((f) => ({
          ruleId: ruleId(f.rule),
          ruleIndex: CHECK_RULES.indexOf(f.rule),
          level: LEVELS[f.rule][f.certainty],
          message: { text: messageText(f) },
          locations: [location(f.locations[0] ?? { path: '.', line: 1 })],
          ...(f.locations.length > 1 ? { relatedLocations: f.locations.slice(1).map((l, i) => location(l, i + 1)) } : {}),
          partialFingerprints: { 'copilotOnboard/v1': f.fingerprint },
          ...(f.inBaseline ? { baselineState: 'unchanged' } : {}),
          properties: { certainty: f.certainty, kind: f.kind, ...(f.target === undefined ? {} : { target: f.target }) },
        })),
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
}

/** At most this many related locations are linked in a message; the rest are listed as related locations only. */
const LINKED = 20;

/** The finding's message, its other locations embedded as `[path:line](id)` links to its related locations. */
function messageText(f: CheckFinding): string {
  const others = f.locations.slice(1).map((l, i) => ({ l, id: i + 1, side: f.sides?.[i + 1] }));
  const said = sentence(sarifText(f.message));
  if (others.length === 0) return said;
  const list = (group: typeof others, words: string) => {
    if (group.length === 0) return '';
    const links = group.slice(0, LINKED).map(({ l, id }) => `[${sarifText(`${l.path}:${l.line}`)}](${id})`);
    const more = group.length > LINKED ? ` and ${group.length - LINKED} more` : '';
    return ` ${words}: ${links.join(', ')}${more}.`;
  };
  if (f.rule === 'contradiction') {
    // The alert stands on the first location's side: the other side lists only the locations that disagree with it.
    const own = f.sides?.[0];
    const sameSide = own === undefined ? [] : others.filter((o) => o.side === own);
    return `${said}${list(
      others.filter((o) => !sameSide.includes(o)),
      'The other side',
    )}${list(sameSide, 'Also on this side')}`;
  }
  return `${said}${list(others, f.rule === 'would-change' ? 'Made also from' : 'Also at')}`;
}

/** A message ends its sentence before the next one starts: a full stop unless it already ends with one (or ! or ?), closing quotes aside. */
function sentence(text: string): string {
  return /[.!?]["'\u2019\u201d]*$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}

function helpText(r: CheckRule, base: string | null, markdown = false): string {
  const where = base
    ? markdown
      ? `See [docs/ci.md](${base}ci.md#${RULES[r].anchor}).`
      : `See ${base}ci.md#${RULES[r].anchor}`
    : `See docs/ci.md in copilot-onboard ${VERSION} (the package ships it).`;
  return `${RULES[r].full}\n\n${where}`;
}
