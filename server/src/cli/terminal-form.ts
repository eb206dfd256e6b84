import { emitKeypressEvents } from 'node:readline';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { colourDiffsIn, colourFor, withoutDiffs } from './diff-text.js';
import { showLine, showText } from '../show/untrusted.js';

/** Answers an elicitation; `signal` aborts when the server stops waiting (timeout, cancelled call). */
export type TerminalForm = (params: ElicitRequest['params'], signal?: AbortSignal) => Promise<ElicitResult>;

type Property = { type?: string; title?: string; description?: string; default?: unknown; oneOf?: { const: string; title: string }[]; enum?: string[] };

/** The approve form's comment: asked after a no, it turns the answer into requested changes. */
const CHANGES_FIELD = 'comment';

const DIFF_SHOWN = '(The diff of every change is shown above; the whole plan is in .copilot-state/plan.json.)';

/**
 * Shows an elicitation form in the terminal with @inquirer/prompts. The choices that shape what
 * will happen come first, the required confirmations after them, free text last. No to a required
 * confirmation declines, except that a no to the approval asks for a comment: with one, the answer
 * is sent as not approved with that comment (the server records it as requested changes).
 * Esc or Ctrl-C cancels; so does the server giving up (the prompt closes at once). There is no
 * way to answer it in advance. `diffShown`: the diff is already on screen, do not repeat it.
 */
export function terminalForm(options: { diffShown?: boolean } = {}): TerminalForm {
  return async (params, serverSignal) => {
    if (!('requestedSchema' in params) || !params.requestedSchema) return { action: 'decline' };
    const { confirm, input, select } = await import('@inquirer/prompts');
    const schema = params.requestedSchema;
    // The server shows untrusted text escaped already; shown again here, which changes nothing in such text.
    const shown = showText(params.message);
    const message = options.diffShown ? withoutDiffs(shown, DIFF_SHOWN) : colourDiffsIn(shown, colourFor(process.stderr));
    process.stderr.write(`\n${message}\n\n`);

    const escape = new AbortController();
    emitKeypressEvents(process.stdin);
    const onKey = (_: string, key: { name?: string } | undefined) => {
      if (key?.name === 'escape') escape.abort();
    };
    process.stdin.on('keypress', onKey);
    const context = { signal: serverSignal ? AbortSignal.any([escape.signal, serverSignal]) : escape.signal, output: process.stderr };
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties as Record<string, Property>);
    const isConfirmation = ([name, p]: [string, Property]) => p.type === 'boolean' && required.has(name);
    const isText = ([, p]: [string, Property]) => p.type === 'string' && !p.oneOf && !p.enum;
    const choices = fields.filter((f) => !isConfirmation(f) && !isText(f));
    const confirmations = fields.filter(isConfirmation);
    const texts = fields.filter(isText);

    const ask = async (name: string, p: Property, raw = p.title ?? name): Promise<string | boolean> => {
      const title = showLine(raw);
      if (p.type === 'boolean') return confirm({ message: p.description ? `${title} (${showLine(p.description)})` : title, default: p.default === true }, context);
      if (p.oneOf || p.enum) {
        const options = p.oneOf ? p.oneOf.map((o) => ({ value: o.const, name: showLine(o.title) })) : p.enum!.map((v) => ({ value: v, name: showLine(v) }));
        return select({ message: title, choices: options, default: typeof p.default === 'string' ? p.default : undefined }, context);
      }
      return input({ message: title, default: typeof p.default === 'string' && p.default !== '' ? p.default : undefined }, context);
    };

    const content: Record<string, string | boolean> = {};
    try {
      for (const [name, p] of choices) content[name] = await ask(name, p);
      for (const [name, p] of confirmations) {
        content[name] = await ask(name, p);
        if (content[name] === true) continue;
        const changes = texts.find(([n]) => n === CHANGES_FIELD);
        if (!changes) return { action: 'decline' };
        const comment = String(await ask(CHANGES_FIELD, changes[1], `${changes[1].title ?? CHANGES_FIELD}: what should change? Leave it empty to just decline.`)).trim();
        if (comment === '') return { action: 'decline' };
        for (const [other] of confirmations) content[other] = content[other] === true;
        return { action: 'accept', content: { ...content, [CHANGES_FIELD]: comment } };
      }
      for (const [name, p] of texts) content[name] = await ask(name, p);
      return { action: 'accept', content };
    } catch (err) {
      const name = (err as Error)?.name;
      if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError') return { action: 'cancel' };
      throw err;
    } finally {
      process.stdin.off('keypress', onKey);
    }
  };
}

/** The form as `approve`, `migrate` and `rollback` show it: the whole message, diff included. */
export const askInTerminal: TerminalForm = terminalForm();
