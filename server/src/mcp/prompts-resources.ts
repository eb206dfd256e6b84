import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import type { PlanFile } from '../state/schema.js';
import { resolveRepoForSession } from './repo.js';
import type { RepoChoice } from '../steps/repo-choice.js';
import { showJson, showLine, showPath, showText } from '../show/untrusted.js';

const ONBOARD_PROMPT = `Onboard this repository's AI instruction files to GitHub Copilot with the copilot-onboard tools.

1. Call onboarding_analyze and tell me which instruction files exist and which rules repeat or contradict each other.
2. Call onboarding_propose and show me the plan: every file it creates, changes or removes, with the diff.
3. When I want to go on, call onboarding_approve. It shows me a form; I answer it myself. Never answer for me, and never pass arguments.
4. Then call onboarding_migrate, which asks me to confirm once more and backs up every file first.
5. If I decline or dismiss a form, stop and ask me what I want; do not call the step again on your own.
6. onboarding_rollback undoes the migration, after asking me. onboarding_status says where things stand.`;

const RESOURCES = [
  {
    uri: 'copilot-onboard://status',
    name: 'status',
    title: 'Onboarding status',
    mimeType: 'text/plain',
    description: 'Where the onboarding stands and the next step.',
  },
  {
    uri: 'copilot-onboard://plan',
    name: 'plan',
    title: 'Current migration plan',
    mimeType: 'text/markdown',
    description: 'The plan from the last propose, with every diff.',
  },
  {
    uri: 'copilot-onboard://plan.diff',
    name: 'plan.diff',
    title: 'The whole diff of the plan',
    mimeType: 'text/x-diff',
    description:
      'Every line of every change the plan makes, as migrate would write it (.copilot-state/plan.diff); its first line names the plan.',
  },
  {
    uri: 'copilot-onboard://traces',
    name: 'traces',
    title: 'Trace files',
    mimeType: 'application/json',
    description: 'Every sampling and elicitation trace, and whether the chain verifies.',
  },
];

/** The prompt `onboard` and read-only resources for the status, the plan and the traces. */
export function registerPromptsAndResources(server: Server, repo: RepoChoice): void {
  server.setRequestHandler('prompts/list', async () => ({
    prompts: [
      {
        name: 'onboard',
        title: 'Onboard to Copilot instructions',
        description: 'Walks the agent through analyze, propose, approve, migrate, with the person deciding.',
      },
    ],
  }));
  server.setRequestHandler('prompts/get', async (req) => {
    if (req.params.name !== 'onboard') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${req.params.name}`);
    return {
      description: 'Onboard to Copilot instructions',
      messages: [{ role: 'user', content: { type: 'text', text: ONBOARD_PROMPT } }],
    };
  });
  server.setRequestHandler('resources/list', async () => ({ resources: RESOURCES }));
  // The resources are fixed; a client that asks for templates learns there are none.
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', async (req, ctx) => {
    const uri = req.params.uri;
    const { base, page } = pageOf(uri);
    const resource = [...RESOURCES, ANALYSIS].find((r) => r.uri === base);
    if (!resource || page === null) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
    const root = await resolveRepoForSession(repo, server, ctx);
    let text: string;
    // Loaded on first read: a server starts faster without the flow's modules.
    if (resource.name === 'status') text = (await (await import('../steps/status.js')).statusStep({ root })).text;
    else if (resource.name === 'plan') text = planMarkdown(await (await import('../state/store.js')).readPlan(root));
    else if (resource.name === 'plan.diff')
      text = (await (await import('../state/plan-diff.js')).readPlanDiff(root))?.text ?? 'No plan yet: run onboarding_propose.';
    else if (resource.name === 'analysis') text = await analysisJson(root);
    else {
      const [{ listTraces }, { verifyTraces }] = await Promise.all([
        import('../state/traces/reader.js'),
        import('../state/traces/verify.js'),
      ]);
      const traces = (await listTraces(root)).map(({ data: _d, file: _f, ...t }) => t);
      text = showJson({ traces, verify: await verifyTraces(root) });
    }
    // Shown to a client like every tool result: hidden characters escaped (JSON stays the same value).
    const pages = paginate(showText(text), PAGE_BYTES);
    if (page > pages.length)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${base} has ${pages.length} page${pages.length > 1 ? 's' : ''}; there is no page ${page}.`,
      );
    const body = pages[page - 1]!;
    const footer =
      pages.length === 1 ? '' : `\n\n[Page ${page} of ${pages.length}.${page < pages.length ? ` Next: ${base}?page=${page + 1}` : ''}]\n`;
    return { contents: [{ uri, mimeType: pages.length === 1 ? resource.mimeType : 'text/plain', text: `${body}${footer}` }] };
  });
}

/**
 * The analysis of the repository as it is now, whole (analyze's reply shows the first of each list).
 * Not listed (the contract fixes the three listed resources): analyze's reply links to it when cut.
 */
const ANALYSIS = {
  uri: 'copilot-onboard://analysis',
  name: 'analysis',
  title: 'Analysis',
  mimeType: 'application/json',
  description: 'The whole analysis: every source, problem and location.',
};

/** A page of a resource is at most this many bytes: a read stays well under 1 MiB. */
export const PAGE_BYTES = 256 * 1024;

/** `copilot-onboard://plan?page=3` → base and page (1 when none; null when the page is not a number ≥ 1). */
function pageOf(uri: string): { base: string; page: number | null } {
  const m = /^(.*?)\?page=(.*)$/.exec(uri);
  if (!m) return { base: uri, page: 1 };
  const n = Number(m[2]);
  return { base: m[1]!, page: Number.isInteger(n) && n >= 1 ? n : null };
}

/** Pages of at most `max` bytes, each ending at a line end where one is near. */
export function paginate(text: string, max: number): string[] {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return [text];
  const pages: string[] = [];
  let start = 0;
  while (start < buf.length) {
    let end = Math.min(buf.length, start + max);
    if (end < buf.length) {
      const nl = buf.lastIndexOf(0x0a, end - 1);
      if (nl > start + max / 2) end = nl + 1;
      // Never inside a UTF-8 sequence.
      while (end > start && (buf[end]! & 0xc0) === 0x80) end--;
    }
    pages.push(buf.subarray(start, end).toString('utf8'));
    start = end;
  }
  return pages;
}

let analysisCache: { root: string; at: number; text: string } | null = null;

/** The analysis facts as JSON; kept a minute, so that reading it page by page analyzes once. */
async function analysisJson(root: string): Promise<string> {
  if (analysisCache && analysisCache.root === root && Date.now() - analysisCache.at < 60_000) return analysisCache.text;
  const [{ scanRepository }, { analyze }, { analysisLabel }] = await Promise.all([
    import('../analysis/discovery/scan.js'),
    import('../analysis/analyze.js'),
    import('../planning/plan.js'),
  ]);
  const scan = await scanRepository(root);
  const raw = analyze(scan);
  const a = { ...raw, ...analysisLabel(scan, raw) };
  const text = showJson({
    pattern: a.pattern,
    patternDetail: a.patternDetail,
    sources: a.sources,
    problems: a.problems,
    skipped: a.skipped,
  });
  analysisCache = { root, at: Date.now(), text };
  return text;
}

function planMarkdown(plan: PlanFile | null): string {
  if (!plan) return '# No plan yet\n\nCall onboarding_propose to build one.\n';
  const out = [`# Migration plan ${plan.planHash.slice(0, 12)}`, '', `Pattern: **${plan.pattern}**. Proposed ${plan.createdAt}.`, ''];
  if (plan.operations.length === 0) out.push('Nothing to do.', '');
  for (const op of plan.operations) {
    // A fence longer than any run of backticks in the diff: a rule cannot close it.
    const fence = '`'.repeat(Math.max(3, ...[...op.diff.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    out.push(`## ${op.op} ${codeSpan(showPath(op.path))}`, '', `${fence}diff`, op.diff.trimEnd(), fence, '');
  }
  if (plan.problems.length > 0) {
    out.push('## Problems', '');
    for (const p of plan.problems)
      out.push(`- **${p.type}**: ${showLine(p.description)} (${p.locations.map((l) => `${showPath(l.path)}:${l.line}`).join(', ')})`);
    out.push('');
  }
  if (plan.notes.length > 0) out.push('## Notes', '', ...plan.notes.map((n) => `- ${showLine(n)}`), '');
  return out.join('\n');
}

/** Inline code that holds any run of backticks. */
function codeSpan(text: string): string {
  const ticks = '`'.repeat(Math.max(1, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return ticks.length > 1 ? `${ticks} ${text} ${ticks}` : `${ticks}${text}${ticks}`;
}
