import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { PlanFile } from '../state/schema.js';
import { resolveRepoForSession, type RepoChoice } from './repo.js';
import { showJson, showLine, showPath, showText } from '../show/untrusted.js';

const ONBOARD_PROMPT = `Onboard this repository's AI instruction files to GitHub Copilot with the copilot-onboard tools.

1. Call onboarding_analyze and tell me which instruction files exist and which rules repeat or contradict each other.
2. Call onboarding_propose and show me the plan: every file it creates, changes or removes, with the diff.
3. When I want to go on, call onboarding_approve. It shows me a form; I answer it myself. Never answer for me, and never pass arguments.
4. Then call onboarding_migrate, which asks me to confirm once more and backs up every file first.
5. If I decline or dismiss a form, stop and ask me what I want; do not call the step again on your own.
6. onboarding_rollback undoes the migration, after asking me. onboarding_status says where things stand.`;

const RESOURCES = [
  { uri: 'copilot-onboard://status', name: 'status', title: 'Onboarding status', mimeType: 'text/plain', description: 'Where the onboarding stands and the next step.' },
  { uri: 'copilot-onboard://plan', name: 'plan', title: 'Current migration plan', mimeType: 'text/markdown', description: 'The plan from the last propose, with every diff.' },
  { uri: 'copilot-onboard://traces', name: 'traces', title: 'Trace files', mimeType: 'application/json', description: 'Every sampling and elicitation trace, and whether the chain verifies.' },
];

/** The prompt `onboard` and read-only resources for the status, the plan and the traces. */
export function registerPromptsAndResources(server: Server, repo: RepoChoice): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [{ name: 'onboard', title: 'Onboard to Copilot instructions', description: 'Walks the agent through analyze, propose, approve, migrate, with the person deciding.' }],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    if (req.params.name !== 'onboard') throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${req.params.name}`);
    return { description: 'Onboard to Copilot instructions', messages: [{ role: 'user', content: { type: 'text', text: ONBOARD_PROMPT } }] };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    const uri = req.params.uri;
    const resource = RESOURCES.find((r) => r.uri === uri);
    if (!resource) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`);
    const root = await resolveRepoForSession(repo, server, extra.requestId);
    let text: string;
    // Loaded on first read: a server starts faster without the flow's modules.
    if (resource.name === 'status') text = (await (await import('../steps/status.js')).statusStep({ root })).text;
    else if (resource.name === 'plan') text = planMarkdown(await (await import('../state/store.js')).readPlan(root));
    else {
      const [{ listTraces }, { verifyTraces }] = await Promise.all([import('../state/traces/reader.js'), import('../state/traces/verify.js')]);
      const traces = (await listTraces(root)).map(({ data: _d, file: _f, ...t }) => t);
      text = showJson({ traces, verify: await verifyTraces(root) });
    }
    // Shown to a client like every tool result: hidden characters escaped (JSON stays the same value).
    return { contents: [{ uri, mimeType: resource.mimeType, text: showText(text) }] };
  });
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
    for (const p of plan.problems) out.push(`- **${p.type}**: ${showLine(p.description)} (${p.locations.map((l) => `${showPath(l.path)}:${l.line}`).join(', ')})`);
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
