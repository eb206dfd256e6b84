import readline from 'node:readline';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Shows an elicitation form in the terminal. Answering no to a required confirmation declines;
 * Ctrl-C or Esc cancels. There is no way to pre-answer it.
 */
export async function askInTerminal(params: ElicitRequest['params']): Promise<ElicitResult> {
  if (!('requestedSchema' in params)) return { action: 'decline' };
  const schema = params.requestedSchema;
  process.stderr.write(`\n${params.message}\n\n`);
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  let cancelled = false;
  const onKey = (_: string, key: { name?: string } | undefined) => {
    if (key?.name === 'escape') {
      cancelled = true;
      rl.close();
    }
  };
  process.stdin.on('keypress', onKey);
  rl.on('SIGINT', () => {
    cancelled = true;
    rl.close();
  });
  const question = (q: string) =>
    new Promise<string | null>((resolve) => {
      rl.question(q, (a) => resolve(a));
      rl.once('close', () => resolve(null));
    });
  const content: Record<string, string | boolean> = {};
  try {
    for (const [name, prop] of Object.entries(schema.properties)) {
      const p = prop as { type?: string; title?: string; description?: string; default?: unknown };
      const label = p.title ?? name;
      const required = schema.required?.includes(name) ?? false;
      if (p.type === 'boolean') {
        const a = await question(`${label}${p.description ? ` (${p.description})` : ''} [y/N] `);
        if (a === null || cancelled) return { action: 'cancel' };
        const yes = /^y(es)?$/i.test(a.trim());
        if (!yes && required) return { action: 'decline' };
        content[name] = yes;
      } else {
        const def = typeof p.default === 'string' ? p.default : '';
        const a = await question(`${label}${def ? ` [${def}]` : ''}: `);
        if (a === null || cancelled) return { action: 'cancel' };
        content[name] = a === '' ? def : a;
      }
    }
    return { action: 'accept', content };
  } finally {
    process.stdin.off('keypress', onKey);
    rl.close();
  }
}
