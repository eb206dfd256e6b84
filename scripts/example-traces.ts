// Regenerates .copilot-state/examples/: the traces of one real run of the whole flow, made by the
// real server over stdio, driven by the MCP SDK's Client through the tests' helper (tests/helpers/mcp.ts).
// Run after `npm run build`: `node --import tsx scripts/example-traces.ts` (npm run examples).
import fs from 'node:fs';
import path from 'node:path';
import { connect, outcomeOf, type ElicitAnswer } from '../tests/helpers/mcp.js';
import { makeRepo, removeRepo } from '../tests/helpers/sandbox.js';

const project = path.resolve(import.meta.dirname, '..');
const repo = makeRepo({
  '.github/copilot-instructions.md':
    '# Team guidelines\n\n- Use pnpm for every install.\n- Write tests with vitest.\n- Indent with 2 spaces.\n- Use npm to add new packages.\n- Indent with 2 spaces.\n- Document exported functions.\n',
  'AGENTS.md': '# Agents\n\n- Never commit secrets or tokens.\n- Use pnpm for every install.\n',
});

// The person: declines the first approval, then approves; confirms migrate and rollback.
let declineNext = true;
const person: ElicitAnswer = (req) => {
  const props = 'requestedSchema' in req ? Object.keys(req.requestedSchema.properties ?? {}) : [];
  if (props.includes('approved')) {
    if (declineNext) {
      declineNext = false;
      return { action: 'decline' };
    }
    return { action: 'accept', content: { approved: true, comment: 'Looks right.' } };
  }
  if (props.includes('understood_risks')) return { action: 'accept', content: { confirmed: true, understood_risks: true } };
  return { action: 'accept', content: { confirmed: true, reason: 'Example run: restoring the original files.' } };
};

const session = await connect({
  repo,
  clientName: 'example-client',
  clientVersion: '1.0.0',
  elicit: person,
  sample: () => ({
    model: 'example-model',
    role: 'assistant',
    content: {
      type: 'text',
      text: 'The instructions repeat one rule and disagree about the package manager; the plan groups them into sections and keeps both package-manager rules, marked.',
    },
    stopReason: 'endTurn',
  }),
});
try {
  for (const tool of [
    'onboarding_analyze',
    'onboarding_propose',
    'onboarding_approve',
    'onboarding_approve',
    'onboarding_migrate',
    'onboarding_rollback',
  ]) {
    console.log(`${tool}: ${outcomeOf(await session.call(tool))}`);
  }
} finally {
  await session.close();
}

const out = path.join(project, '.copilot-state/examples');
for (const kind of ['elicitation-traces', 'sampling-traces']) {
  fs.rmSync(path.join(out, kind), { recursive: true, force: true });
  fs.cpSync(path.join(repo, '.copilot-state', kind), path.join(out, kind), { recursive: true });
}
fs.copyFileSync(path.join(repo, '.copilot-state/trace-chain.json'), path.join(out, 'trace-chain.json'));
removeRepo(repo);
console.log('Wrote .copilot-state/examples/');
