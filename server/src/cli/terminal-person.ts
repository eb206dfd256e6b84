import { NoReplyError, type Person } from '../call/ports.js';
import { askInTerminal, type TerminalForm } from './terminal-form.js';

/** setTimeout's longest wait; a longer one would fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The person at this terminal, as the flow's port (call/ports.ts): the form is shown with the
 * terminal form (cli/terminal-form.ts). The wait is the server's own (the gate's elicitation
 * timeout): when it ends, the prompt closes at once and the answer is none (a timeout), never a
 * yes; when the call is stopped (`signal`), the prompt closes too. Esc and Ctrl-C in the prompt
 * cancel, as the form says.
 */
export function terminalPerson(form: TerminalForm): Person {
  return {
    canAnswerForms: () => true,
    async askForm(message, requestedSchema, { timeoutMs, signal }) {
      const gaveUp = new AbortController();
      const timer = setTimeout(() => gaveUp.abort(), Math.min(timeoutMs, LONGEST_TIMER_MS));
      try {
        const reply = await form({ message, requestedSchema }, signal ? AbortSignal.any([gaveUp.signal, signal]) : gaveUp.signal);
        // The prompt closed because the wait ended: what it returned is no answer.
        if (gaveUp.signal.aborted) throw new NoReplyError('timeout', `No answer within ${timeoutMs} ms.`);
        if (signal?.aborted) throw new NoReplyError('failed', 'The call was stopped while the form was open.');
        return 'content' in reply
          ? { action: reply.action, content: reply.content, hasContent: true }
          : { action: reply.action, hasContent: false };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The person at this terminal, when there is one to ask (a terminal on stdin); none: the gated steps are refused, exit 3. */
export function terminalPersonIfAny(form: TerminalForm = askInTerminal): Person | null {
  return process.stdin.isTTY ? terminalPerson(form) : null;
}
