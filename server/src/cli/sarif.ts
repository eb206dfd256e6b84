import { CHECK_RULES, type CheckReport, type CheckRule } from '../steps/check.js';
import type { Certainty } from '../model/problem.js';
import { VERSION } from '../version.js';

/**
 * The check report as SARIF 2.1.0, for GitHub code scanning (upload-sarif). One result per finding,
 * at its first location; the other locations are related locations. Certainty is the level
 * (high → error, medium → warning, low → note) and the `certainty` property.
 */

/** Where the rules' help lives: the docs shipped in the npm package, as unpkg serves them (docs/ci.md). */
export const DOCS_BASE = `https://unpkg.com/copilot-onboard@${VERSION}/docs/`;

const RULES: Record<CheckRule, { name: string; short: string; full: string; doc: string }> = {
  contradiction: {
    name: 'Contradiction',
    short: 'Two instruction files (or two places in one) say opposite things.',
    full: 'Two rules that apply to the same files give opposite instructions (use one tool or another, do or do not). An assistant reading both follows one at random. Decide which stands and remove the other.',
    doc: 'ci.md#copilot-onboardcontradiction',
  },
  duplicate: {
    name: 'Duplicate',
    short: 'The same rule is written in more than one place.',
    full: 'A rule is repeated, word for word or reworded, in several instruction files or sections. Copies drift apart over time; keep one.',
    doc: 'ci.md#copilot-onboardduplicate',
  },
  drift: {
    name: 'Drift',
    short: "A legacy instruction file says something Copilot's files do not.",
    full: "A legacy instruction file (CLAUDE.md, AGENTS.md, .cursor/rules, ...) standing beside Copilot's instruction files holds rule lines that none of Copilot's files holds, so Copilot does not follow them. Carry the rule over (run propose) or remove it.",
    doc: 'ci.md#copilot-onboarddrift',
  },
  'would-change': {
    name: 'WouldChange',
    short: 'Onboarding is not current: propose would change this file.',
    full: "If copilot-onboard propose ran now, its plan would create, change or remove this file: Copilot's layout is not up to date with the instruction files.",
    doc: 'ci.md#copilot-onboardwould-change',
  },
  ambiguity: {
    name: 'Ambiguity',
    short: 'An instruction file holds text a reader may not see (hidden characters), or imports more than is read.',
    full: 'An instruction file holds characters that display as nothing or as something else (zero-width, bidirectional controls), or more @path import lines than copilot-onboard follows (200 per file, 1,000 in all). A person reviewing it may not see what the assistant reads.',
    doc: 'analysis.md',
  },
};

const LEVEL: Record<Certainty, 'error' | 'warning' | 'note'> = { high: 'error', medium: 'warning', low: 'note' };

export const ruleId = (rule: CheckRule): string => `copilot-onboard/${rule}`;

export function toSarif(report: CheckReport): Record<string, unknown> {
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
            informationUri: `${DOCS_BASE}ci.md`,
            rules: CHECK_RULES.map((r) => ({
              id: ruleId(r),
              name: RULES[r].name,
              shortDescription: { text: RULES[r].short },
              fullDescription: { text: RULES[r].full },
              helpUri: DOCS_BASE + RULES[r].doc,
              defaultConfiguration: { level: r === 'contradiction' || r === 'drift' ? 'error' : 'warning' },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The root of the repository checked.' } } },
        results: report.findings.map((f) => ({
          ruleId: ruleId(f.rule),
          ruleIndex: CHECK_RULES.indexOf(f.rule),
          level: LEVEL[f.certainty],
          message: { text: f.message },
          locations: [location(f.locations[0] ?? { path: '.', line: 1 })],
          ...(f.locations.length > 1 ? { relatedLocations: f.locations.slice(1).map((l, i) => location(l, i + 1)) } : {}),
          partialFingerprints: { 'copilotOnboard/v1': f.fingerprint },
          ...(f.inBaseline ? { baselineState: 'unchanged' } : {}),
          properties: { certainty: f.certainty, kind: f.kind },
        })),
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
}
