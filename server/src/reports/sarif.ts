import type { CheckFinding, CheckReport } from '../steps/check.js';
import type { Certainty } from '../model/problem.js';
import { CHECK_RULE_IDS, CHECK_RULES, type CheckRule, type SarifLevel } from '../model/findings.js';
import { REPOSITORY_URL } from '../package-root.js';
import { VERSION } from '../version.js';

/**
 * The check report as SARIF 2.1.0, for GitHub code scanning (upload-sarif). One result per finding,
 * at its first location; the other locations are related locations, each linked from the message
 * as `[path:line](id)` (GitHub links only what the message embeds). The level follows the rule and
 * the certainty together (`levelOf`, from model/findings.ts): only a contradiction or a file that
 * could not be read can be an error, so that a ruleset blocking on code-scanning errors blocks on
 * what fails `check` by default.
 */

export type { SarifLevel } from '../model/findings.js';

/**
 * The level of a finding, by its rule and certainty (the findings table's `sarif.levels`): a
 * contradiction is an error when high, a warning when medium; duplicates, drift and hidden text are
 * warnings (notes when low); a file propose would change is a note (the onboarding is behind,
 * nothing is wrong yet); a file that could not be read is an error, as it fails the check like a
 * contradiction.
 */
export const levelOf = (rule: CheckRule, certainty: Certainty): SarifLevel => CHECK_RULES[rule].sarif.levels[certainty];

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
            rules: CHECK_RULE_IDS.map((r) => ({
              id: ruleId(r),
              name: CHECK_RULES[r].sarif.name,
              shortDescription: { text: CHECK_RULES[r].sarif.short },
              fullDescription: { text: CHECK_RULES[r].sarif.full },
              help: { text: helpText(r, base), markdown: helpText(r, base, true) },
              ...(base ? { helpUri: `${base}ci.md#${CHECK_RULES[r].sarif.anchor}` } : {}),
              defaultConfiguration: { level: levelOf(r, 'high') },
              properties: { tags: ['copilot-instructions'] },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The root of the repository checked.' } } },
        results: report.findings.map((f) => ({
          ruleId: ruleId(f.rule),
          ruleIndex: CHECK_RULE_IDS.indexOf(f.rule),
          level: levelOf(f.rule, f.certainty),
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
      CHECK_RULES.contradiction.sarif.others,
    )}${list(sameSide, 'Also on this side')}`;
  }
  return `${said}${list(others, CHECK_RULES[f.rule].sarif.others)}`;
}

/** A message ends its sentence before the next one starts: a full stop unless it already ends with one (or ! or ?), closing quotes aside. */
function sentence(text: string): string {
  return /[.!?]["'\u2019\u201d]*$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}

function helpText(r: CheckRule, base: string | null, markdown = false): string {
  const where = base
    ? markdown
      ? `See [docs/ci.md](${base}ci.md#${CHECK_RULES[r].sarif.anchor}).`
      : `See ${base}ci.md#${CHECK_RULES[r].sarif.anchor}`
    : `See docs/ci.md in copilot-onboard ${VERSION} (the package ships it).`;
  return `${CHECK_RULES[r].sarif.full}\n\n${where}`;
}
