// Every domain type, outcome and tool is written once: as a zod schema or a table row, with the
// TypeScript types inferred from it. This file fails when a second copy comes back: the type-level
// checks fail `npm run typecheck` when a stored or tool schema drifts from the type the code builds,
// and the source checks fail when a type is written again by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { analyze } from '../../server/src/analysis/analyze.js';
import type { ScanResult } from '../../server/src/analysis/discovery/scan.js';
import {
  ELICITATION_OUTCOMES,
  exitCodeFor,
  exitCodeForResult,
  BAD_INPUT_META,
  OUTCOME_NAMES,
  OUTCOMES,
  type Outcome,
  type RefusalOutcome,
} from '../../server/src/common/outcomes.js';
import type { buildPlan } from '../../server/src/planning/plan.js';
import { ElicitationOutcome, PlanFile, type ElicitationTrace, type OnboardingState } from '../../server/src/state/schema.js';
import { TOOLS, type ToolName } from '../../server/src/mcp/tool-schemas.js';
import type { Analysis } from '../../server/src/model/analysis.js';
import type { PlanChoices, PlanOperation } from '../../server/src/model/plan.js';
import type { SourceInfo } from '../../server/src/model/source.js';
import type { ApproveFormInput, choicesForm } from '../../server/src/gate/choices-round.js';
import type { ConflictOption as ConflictOptionType, PlanChoices as PlanChoicesType } from '../../server/src/model/plan.js';
import * as problemSchemas from '../../server/src/model/problem.js';
import * as sourceSchemas from '../../server/src/model/source.js';
import * as analysisSchemas from '../../server/src/model/analysis.js';
import * as planSchemas from '../../server/src/model/plan.js';
import * as stateSchemas from '../../server/src/state/schema.js';

/** True only when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Equal<A, B>) => assert.equal(ok, true);

test("the stored plan is the plan the planner builds, the analysis and scan types are the schemas' (checked by the type checker)", () => {
  type Planned = ReturnType<typeof buildPlan>;
  // The stored file adds its date, its version, the tool version that wrote it, its seal to this clone (state/binding.ts)
  // and the client model's opinion of the second-look pairs (narrate/opinion.ts), which is not part of the plan.
  same<Omit<z.infer<typeof PlanFile>, 'version' | 'createdAt' | 'binding' | 'writtenBy' | 'modelOpinion'>, Omit<Planned, 'chosenHash'>>(
    true,
  );
  same<Planned['operations'][number], PlanOperation>(true);
  same<z.infer<typeof PlanFile>['operations'][number], PlanOperation>(true);
  same<OnboardingState['approval'] extends infer A ? (A extends { choices: infer C } ? C : never) : never, PlanChoices>(true);
  same<ReturnType<typeof analyze>, Analysis>(true);
  same<ScanResult['sources'][number], SourceInfo>(true);
  same<z.infer<typeof PlanFile>['sources'][number], SourceInfo>(true);
  // What the tools return is built on the same schemas.
  type AnalyzeOut = z.infer<ReturnType<(typeof TOOLS)['onboarding_analyze']['output']>>;
  same<NonNullable<AnalyzeOut['problems']>, Analysis['problems']>(true);
  same<NonNullable<AnalyzeOut['sources']>, Analysis['sources']>(true);
  same<NonNullable<AnalyzeOut['pattern']>, Analysis['pattern']>(true);
  same<AnalyzeOut['outcome'], Outcome>(true);
  // A refusal is something an elicitation trace records.
  same<Extract<ElicitationTrace['outcome'], RefusalOutcome>, RefusalOutcome>(true);
  // The approve form reads the plan's own types and answers with the choices' type.
  same<ReturnType<ReturnType<typeof choicesForm>['choicesFrom']>, PlanChoicesType>(true);
  same<ApproveFormInput['conflicts'][number], ConflictOptionType>(true);
});

test('every outcome in the one table has an exit code and words for a person, and every tool and the elicitation trace take their outcomes from it', () => {
  assert.deepEqual(OUTCOME_NAMES, Object.keys(OUTCOMES));
  for (const o of OUTCOME_NAMES) {
    const spec = OUTCOMES[o];
    assert.ok(Number.isInteger(spec.exit) && spec.exit >= 0 && spec.exit <= 4, o);
    assert.equal(exitCodeFor(o), spec.exit, o);
    assert.ok(spec.forPerson.length > 0, o);
    // A step done exits 0; a refusal never does.
    assert.equal(spec.exit === 0, !spec.refusal, o);
    assert.equal(exitCodeForResult({ structuredContent: { outcome: o } }), spec.exit, o);
    assert.equal(
      exitCodeForResult({ structuredContent: { outcome: o }, _meta: { [BAD_INPUT_META]: true } }),
      'exitForBadInput' in spec ? spec.exitForBadInput : spec.exit,
      o,
    );
  }
  assert.equal(exitCodeForResult({}), OUTCOMES.error.exit, 'a result without an outcome is an internal error');
  for (const name of Object.keys(TOOLS) as ToolName[]) {
    assert.deepEqual(TOOLS[name].output().shape.outcome.options, OUTCOME_NAMES, name);
  }
  for (const o of ELICITATION_OUTCOMES) assert.ok(ElicitationOutcome.options.includes(o), o);
  for (const o of OUTCOME_NAMES.filter((n) => OUTCOMES[n].refusal)) assert.ok(ELICITATION_OUTCOMES.includes(o), o);
});

test('tools/list shows each tool of the one table, with its outcomes from the outcome table', async () => {
  const { toolDefinitions } = await import('../../server/src/mcp/server.js');
  const listed = toolDefinitions();
  assert.deepEqual(
    listed.map((t) => t.name),
    Object.keys(TOOLS),
  );
  for (const t of listed) {
    const spec = TOOLS[t.name as ToolName];
    assert.deepEqual([t.title, t.description, t.annotations], [spec.title, spec.description, spec.annotations]);
    assert.deepEqual(t.inputSchema, { type: 'object', properties: {}, additionalProperties: false }, t.name);
    assert.deepEqual((t.outputSchema?.properties?.outcome as { enum: string[] }).enum, OUTCOME_NAMES, t.name);
  }
});

const SRC = path.resolve(import.meta.dirname, '../../server/src');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith('.ts') ? [full] : [];
  });
}
const files = sources(SRC).map((f) => ({ rel: path.relative(SRC, f).split(path.sep).join('/'), text: readFileSync(f, 'utf8') }));

/** The domain types whose one source is a zod schema in model/ (and the stored-only ones, in state/schema.ts). */
const DOMAIN = {
  'model/problem.ts': ['Location', 'Certainty', 'Problem'],
  'model/source.ts': ['Sha256', 'SourceInfo', 'Skipped'],
  'model/analysis.ts': ['Pattern', 'Analysis'],
  'model/plan.ts': ['PlanOperation', 'LegacyFate', 'LegacyOption', 'ConflictOption', 'PlanChoices', 'Merged', 'Provenance', 'Plan'],
  'state/schema.ts': ['PlanFile', 'Recovery', 'ClientInfo'],
};

test('each domain type is declared once, as a zod schema, and typed by z.infer wherever it is named', () => {
  const found: string[] = [];
  for (const [home, names] of Object.entries(DOMAIN)) {
    for (const name of names) {
      const schema = new RegExp(`^export const ${name} = z\\.`, 'm');
      assert.ok(schema.test(files.find((f) => f.rel === home)!.text), `${home} declares ${name} as a zod schema`);
      const byHand = new RegExp(`^\\s*(export )?(interface ${name}\\b|type ${name}\\s*=(?!\\s*z\\.infer<typeof ${name}>))`, 'm');
      const again = new RegExp(`^\\s*(export )?const ${name}\\s*=`, 'm');
      for (const f of files) {
        if (byHand.test(f.text)) found.push(`${f.rel}: ${name} written by hand`);
        if (f.rel !== home && again.test(f.text)) found.push(`${f.rel}: ${name} declared again`);
      }
    }
  }
  assert.deepEqual(found, [], 'import the type from model/ (its schema is the one source)');
});

test('the outcome list, the bad-input mark and the tool definitions are written in one place each', () => {
  const outcomes = OUTCOME_NAMES.join('|');
  // Names only the outcome table has (a step is also called `approved`, a sampling also ends in `timeout`).
  const own = 'elicitation_unsupported|declined|cancelled|not_confirmed|invalid_response|precondition_failed';
  // One of them next to another outcome, as in an enum or a list: a copy of the outcome table.
  const comment = String.raw`(\/\*\*[^]*?\*\/\s*)?`;
  const list = new RegExp(`'(${own})'\\s*,\\s*${comment}'(${outcomes})'|'(${outcomes})'\\s*,\\s*${comment}'(${own})'`);
  const where = (re: RegExp) => files.filter((f) => re.test(f.text)).map((f) => f.rel);
  assert.deepEqual(where(list), [], 'derive the list from OUTCOMES in common/outcomes.ts');
  assert.deepEqual(where(/'copilot-onboard\/bad-input'/), ['common/outcomes.ts']);
  assert.deepEqual(where(/readOnlyHint/), ['mcp/tool-schemas.ts'], 'a tool is described in the tool table only');
  assert.deepEqual(
    where(/\b(analyze|propose|approve|migrate|rollback|status|check)Step\(ctx\)/),
    // The read-only tools' rows are a module of their own, which the CLI's read-only file is built from.
    ['steps/read-only-steps.ts', 'steps/tool-steps.ts'],
    "the step a tool runs is in the tool table's run column only",
  );
});

/**
 * The fields of each domain schema that is an object (zod's `shape`) of three fields or more, by
 * name: two fields agree by chance (a path and a line); the approve form's two-field types are
 * checked by the type checker above.
 */
const SCHEMAS: Record<string, unknown> = { ...problemSchemas, ...sourceSchemas, ...analysisSchemas, ...planSchemas, ...stateSchemas };
const shapes = Object.entries(DOMAIN).flatMap(([, names]) =>
  names.flatMap((name) => {
    const shape = (SCHEMAS[name] as { shape?: Record<string, unknown> } | undefined)?.shape;
    return shape && Object.keys(shape).length >= 3 ? [{ name, keys: Object.keys(shape).sort().join(',') }] : [];
  }),
);

/** The bodies of interfaces, of `type X = {...}` and of one-line type literals (`{ a: A; b: B }`), with their field names. */
function typeBodies(text: string): { at: string; keys: string }[] {
  const out: { at: string; keys: string }[] = [];
  const field = /(?:^|[;{\n])\s*(?:readonly\s+)?(\w+)\??\s*:/g;
  const declared = /(?:interface (\w+)[^{=]*|type (\w+)(?:<[^>]*>)? = )\{/g;
  for (const m of text.matchAll(declared)) {
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; i < text.length && depth > 0; i++) depth += text[i] === '{' ? 1 : text[i] === '}' ? -1 : 0;
    // Only the top level: nested object types are bodies of their own.
    const top = text
      .slice(start, i - 1)
      .replace(/\{[^{}]*\}/g, '{}')
      .replace(/\/\*\*[^]*?\*\//g, '');
    out.push({
      at: m[1] ?? m[2]!,
      keys: [...top.matchAll(field)]
        .map((f) => f[1]!)
        .sort()
        .join(','),
    });
  }
  for (const m of text.matchAll(/\{ (\w+\??: [^{};\n]+;(?: \w+\??: [^{};\n]+;?)+) \}/g)) {
    out.push({
      at: m[0],
      keys: [...`{${m[1]}`.matchAll(field)]
        .map((f) => f[1]!)
        .sort()
        .join(','),
    });
  }
  return out;
}

test('no type written by hand has the same fields as a domain schema (the form, the steps and the planner take them from model/)', () => {
  const found: string[] = [];
  for (const f of files) {
    for (const body of typeBodies(f.text)) {
      const twin = shapes.find((s) => s.keys === body.keys);
      if (twin) found.push(`${f.rel}: ${body.at} has the fields of ${twin.name}`);
    }
  }
  assert.deepEqual(found, [], 'use the zod-inferred type (Pick<> of it) instead of writing its fields again');
});
