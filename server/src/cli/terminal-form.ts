import { emitKeypressEvents } from 'node:readline';
import { colourDiffsIn, colourFor, withoutDiffs } from '../show/diff-text.js';
import { showLine, showText } from '../show/untrusted.js';
import { roleOf } from '../call/field-roles.js';

/** The form a step asks: its message, and the JSON Schema of its fields (gate/fields.ts). */
export interface FormAsked {
  message: string;
  requestedSchema: Record<string, unknown>;
}

/** The answer as a client sends it: accept with the content, decline or cancel. */
export type FormAnswer = { action: 'accept'; content: Record<string, string | boolean> } | { action: 'decline' | 'cancel' };

/** Answers a form; `signal` aborts when the wait ends (the gate's timeout, a stopped call): the prompt closes at once. */
export type TerminalForm = (asked: FormAsked, signal?: AbortSignal) => Promise<FormAnswer>;

type Property = {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  oneOf?: { const: string; title: string }[];
  enum?: string[];
};

const DIFF_SHOWN = '(The whole diff of every change is shown above, printed by propose; it is also in .copilot-state/plan.diff.)';

/**
 * Shows an elicitation form in the terminal with @inquirer/prompts. The choices that shape what
 * will happen come first, the required confirmations after them, free text last. No to a required
 * confirmation declines, and nothing more is asked, except that a no to the approval offers to go
 * back to the choices (approve's second round) and then asks for a comment: with one, the answer
 * is sent as not approved with that comment (the server records it as requested changes). The
 * comment is asked only after a no. A no to overwriting uncommitted changes declines at once.
 * Esc or Ctrl-C cancels; so does the wait ending (the prompt closes at once). There is no
 * way to answer it in advance. `diffShown`: the diff is already on screen, do not repeat it (as a
 * function: the hash of the plan whose diff is on screen).
 */
export function terminalForm(options: { diffShown?: boolean | (() => string | null) } = {}): TerminalForm {
  return async (params, waitEnded) => {
    const schema = params.requestedSchema as { properties?: Record<string, Property> };
    // The step shows untrusted text escaped already; shown again here, which changes nothing in such text.
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
    const context = { signal: waitEnded ? AbortSignal.any([escape.signal, waitEnded]) : escape.signal, output: process.stderr };
    const fields = Object.entries(schema.properties ?? {});
    const withRole = (...roles: string[]) => fields.filter(([name]) => roles.includes(roleOf(name)));
    // What shapes what will happen first (a no to overwriting uncommitted changes refuses at once).
    const choices = withRole('choice', 'allow_uncommitted');
    const back = withRole('go_back')[0];
    const confirmations = withRole('confirm');
    const changes = withRole('comment')[0];
    const notes = withRole('reason');

    const ask = (name: string, p: Property, raw = p.title ?? name) => askField(p, showLine(raw), context);

    const content: Record<string, string | boolean> = {};
    try {
      for (const [name, p] of choices) {
        content[name] = await ask(name, p);
        // A no that refuses the step (overwrite uncommitted changes?) ends the form: nothing more is asked.
        if (roleOf(name) === 'allow_uncommitted' && content[name] === false) return { action: 'decline' };
      }
      for (const [name, p] of confirmations) {
        content[name] = await ask(name, p);
        if (content[name] === true) continue;
        for (const [other] of confirmations) content[other] = content[other] === true;
        if (back && (await ask(back[0], back[1], 'Go back and change your choices instead?')) === true) {
          return { action: 'accept', content: { ...content, [back[0]]: true } };
        }
        if (!changes) return { action: 'decline' };
        const comment = String(
          await ask(
            changes[0],
            changes[1],
            'Comment (optional): what should change? It is recorded and shown by the next propose. Leave it empty to just decline.',
          ),
        ).trim();
        if (comment === '') return { action: 'decline' };
        return { action: 'accept', content: { ...content, [changes[0]]: comment } };
      }
      // The approve comment is for requested changes: asked only after a no (above).
      for (const [name, p] of notes) content[name] = await ask(name, p);
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
