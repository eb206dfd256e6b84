import { emitKeypressEvents } from 'node:readline';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Shows an elicitation form in the terminal with @inquirer/prompts: booleans, titled choices and
 * text with defaults. Answering no to a required confirmation declines; Esc or Ctrl-C cancels.
 * There is no way to answer it in advance.
 */
export async function askInTerminal(params: ElicitRequest['params']): Promise<ElicitResult> {
  if (!('requestedSchema' in params) || !params.requestedSchema) return { action: 'decline' };
  const { confirm, input, select } = await import('@inquirer/prompts');
  const schema = params.requestedSchema;
  process.stderr.write(`\n${params.message}\n\n`);

  const controller = new AbortController();
  emitKeypressEvents(process.stdin);
  const onKey = (_: string, key: { name?: string } | undefined) => {
    if (key?.name === 'escape') controller.abort();
  };
  process.stdin.on('keypress', onKey);
  const context = { signal: controller.signal, output: process.stderr };
  const content: Record<string, string | boolean> = {};
  try {
    for (const [name, prop] of Object.entries(schema.properties)) {
      const p = prop as { type?: string; title?: string; description?: string; default?: unknown; oneOf?: { const: string; title: string }[]; enum?: string[] };
      const message = p.title ?? name;
      const required = schema.required?.includes(name) ?? false;
      if (p.type === 'boolean') {
        const yes = await confirm({ message: p.description ? `${message} (${p.description})` : message, default: p.default === true }, context);
        if (!yes && required) return { action: 'decline' };
        content[name] = yes;
      } else if (p.oneOf || p.enum) {
        const choices = p.oneOf ? p.oneOf.map((o) => ({ value: o.const, name: o.title })) : p.enum!.map((v) => ({ value: v, name: v }));
        content[name] = await select({ message, choices, default: typeof p.default === 'string' ? p.default : undefined }, context);
      } else {
        content[name] = await input({ message, default: typeof p.default === 'string' && p.default !== '' ? p.default : undefined }, context);
      }
    }
    return { action: 'accept', content };
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError') return { action: 'cancel' };
    throw err;
  } finally {
    process.stdin.off('keypress', onKey);
  }
}
