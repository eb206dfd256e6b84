import { emitKeypressEvents } from 'node:readline';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { colourDiffsIn, colourFor, withoutDiffs } from '../show/diff-text.js';
import { showLine, showText } from '../show/untrusted.js';

/** Answers an elicitation; `signal` aborts when the server stops waiting (timeout, cancelled call). */
export type TerminalForm = (params: ElicitRequest['params'], signal?: AbortSignal) => Promise<ElicitResult>;

type Property = {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  oneOf?: { const: string; title: string }[];
  enum?: string[];
};

/** The approve form's comment: asked after a no, it turns the answer into requested changes. */
const CHANGES_FIELD = 'comment';
/** Approve's second round: after a no, go back to the choices instead. */
const BACK_FIELD = 'choose_again';
/** Optional yes/no questions where no refuses the step: nothing more is asked after it. */
const REFUSED_BY_NO = new Set(['allow_uncommitted']);

const DIFF_SHOWN = '(The whole diff of every change is shown above, printed by propose; it is also in .copilot-state/plan.diff.)';

/**
 * Shows an elicitation form in the terminal with @inquirer/prompts. The choices that shape what
 * will happen come first, the required confirmations after them, free text last. No to a required
 * confirmation declines, and nothing more is asked, except that a no to the approval offers to go
 * back to the choices (approve's second round) and then asks for a comment: with one, the answer
 * is sent as not approved with that comment (the server records it as requested changes). The
 * comment is asked only after a no. A no to overwriting uncommitted changes declines at once.
 * Esc or Ctrl-C cancels; so does the server giving up (the prompt closes at once). There is no
 * way to answer it in advance. `diffShown`: the diff is already on screen, do not repeat it (as a
 * function: the hash of the plan whose diff is on screen).
 */
export function terminalForm(options: { diffShown?: boolean | (() => string | null) } = {}): TerminalForm {
  return async (params, serverSignal) => {
    if (!('requestedSchema' in params) || !params.requestedSchema) return { action: 'decline' };
    const schema = params.requestedSchema;
    // The server shows untrusted text escaped already; shown again here, which changes nothing in such text.
    const shown = showText(params.message);
    // `diffShown` as a function gives the hash of the plan whose diff is on screen: a message about
    // another plan (approve's second round, rebuilt with changed choices) shows its own diff.
    const onScreen = typeof options.diffShown === 'function' ? options.diffShown() : null;
    const sameDiff = options.diffShown === true || (onScreen !== null && shown.includes(`plan ${onScreen.slice(0, 12)} `));
    const message = sameDiff ? withoutDiffs(shown, DIFF_SHOWN) : colourDiffsIn(shown, colourFor(process.stderr));
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
    const choices = fields.filter((f) => !isConfirmation(f) && !isText(f) && f[0] !== BACK_FIELD);
    const back = fields.find(([n]) => n === BACK_FIELD);
    const confirmations = fields.filter(isConfirmation);
    const texts = fields.filter(isText);

    const ask = (name: string, p: Property, raw = p.title ?? name) => askField(p, showLine(raw), context);

    const content: Record<string, string | boolean> = {};
    try {
      for (const [name, p] of choices) {
        content[name] = await ask(name, p);
        // A no that refuses the step (overwrite uncommitted changes?) ends the form: nothing more is asked.
        if (REFUSED_BY_NO.has(name) && content[name] === false) return { action: 'decline' };
      }
      for (const [name, p] of confirmations) {
        content[name] = await ask(name, p);
        if (content[name] === true) continue;
        for (const [other] of confirmations) content[other] = content[other] === true;
        if (back && (await ask(BACK_FIELD, back[1], 'Go back and change your choices instead?')) === true) {
          return { action: 'accept', content: { ...content, [BACK_FIELD]: true } };
        }
        const changes = texts.find(([n]) => n === CHANGES_FIELD);
        if (!changes) return { action: 'decline' };
        const comment = String(
          await ask(
            CHANGES_FIELD,
            changes[1],
            'Comment (optional): what should change? It is recorded and shown by the next propose. Leave it empty to just decline.',
          ),
        ).trim();
        if (comment === '') return { action: 'decline' };
        return { action: 'accept', content: { ...content, [CHANGES_FIELD]: comment } };
      }
      // The approve comment is for requested changes: asked only after a no (above).
      for (const [name, p] of texts) if (name !== CHANGES_FIELD) content[name] = await ask(name, p);
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

/** One field of the form as a prompt: a yes or no, a choice, or a line of text. */
async function askField(
  p: Property,
  title: string,
  context: { signal: AbortSignal; output: NodeJS.WritableStream },
): Promise<string | boolean> {
  const { confirm, input, select } = await import('@inquirer/prompts');
  if (p.type === 'boolean')
    return confirm({ message: p.description ? `${title} (${showLine(p.description)})` : title, default: p.default === true }, context);
  if (p.oneOf || p.enum) {
    const options = p.oneOf
      ? p.oneOf.map((o) => ({ value: o.const, name: showLine(o.title) }))
      : p.enum!.map((v) => ({ value: v, name: showLine(v) }));
    return select({ message: title, choices: options, default: typeof p.default === 'string' ? p.default : undefined }, context);
  }
  return input({ message: title, default: typeof p.default === 'string' && p.default !== '' ? p.default : undefined }, context);
}

/** The form as `approve`, `migrate` and `rollback` show it: the whole message, diff included. */
export const askInTerminal: TerminalForm = terminalForm();
