import { errorMessage } from '../common/errors.js';
import { outcomeForError } from '../common/error-outcomes.js';
import type { RefusalOutcome } from '../common/outcomes.js';
import { showLine } from '../show/untrusted.js';
import type { ClientInfo, DiffPointer, ElicitationTrace, GatedStep, TraceProtocol } from '../state/schema.js';
import { repoRelative, writeElicitationTrace } from '../state/traces/writer.js';
import { FORMS, type Form } from './forms.js';

export interface Acted {
  outcome: 'approved' | 'migrated' | 'rolled_back';
  /** What was done, for the model and the trace. */
  detail: string;
  /** Runs right after the trace is written: the operation's last file operation (clearing its journal). */
  settle?: () => Promise<void>;
  /** Runs once the trace is written (a commit that names it); returns what to add to the result text. */
  afterTrace?: (trace: string | null) => Promise<string>;
  /** Added to the step's structured result. */
  fields?: Record<string, unknown>;
}

export interface GateResult<P = unknown> {
  outcome: Acted['outcome'] | RefusalOutcome;
  text: string;
  trace: string | null;
  planHash: string | null;
  content?: Record<string, unknown>;
  /** What a refused answer held, such as the comment of an approve answered no. */
  answered?: Record<string, unknown>;
  badInput?: boolean;
  /** What the last round asked carried for act, when a round that carries it was reached. */
  prepared?: P;
  /** What act added to the structured result. */
  fields?: Record<string, unknown>;
}

/** What a round shows: the plan it is about, the message and the form. */
interface Shown {
  planHash: string | null;
  message: string;
  form?: Form;
  diffFile?: DiffPointer;
}

/**
 * The exchange the gate is in: what the person was shown and answered, and since when. Every round
 * ends in exactly one trace of it, a refusal's and the step's last included.
 */
export class Exchange<P> {
  planHash: string | null = null;
  message = '';
  form: Form;
  response: ElicitationTrace['response'] = null;
  diffFile: DiffPointer | null = null;
  private started = Date.now();
  /** The rounds asked so far (0: none). */
  private round = 0;

  constructor(
    private readonly root: string,
    private readonly step: GatedStep,
    private readonly client: ClientInfo | null,
    private readonly protocol: TraceProtocol | null = null,
  ) {
    this.form = FORMS[step];
  }

  /** What would be shown, recorded without asking (a client that cannot show forms). */
  show(round: Shown): void {
    this.planHash = round.planHash;
    this.message = round.message;
    this.diffFile = round.diffFile ?? null;
    if (round.form) this.form = round.form;
  }

  /** A round about to be asked: its form is the round's own, or the step's contract form. */
  begin(round: Shown): void {
    this.planHash = round.planHash;
    this.message = round.message;
    this.form = round.form ?? FORMS[this.step];
    this.diffFile = round.diffFile ?? null;
    this.started = Date.now();
    this.response = null;
    this.round++;
  }

  /** One trace for the exchange just ended (a round that led on to the next one included). */
  async trace(outcome: ElicitationTrace['outcome'], text: string): Promise<{ path: string | null; problem?: string }> {
    const trace: Omit<ElicitationTrace, 'seq' | 'prev' | 'timestamp'> = {
      action: this.step,
      message: this.message,
      schema: this.form.requestedSchema,
      response: this.response,
      outcome,
      duration_ms: Date.now() - this.started,
      planHash: this.planHash,
      client: this.client,
      ...(this.protocol ? { protocol: this.protocol } : {}),
      ...(this.round > 0 ? { round: this.round } : {}),
      detail: text,
      ...(this.diffFile ? { diffFile: this.diffFile } : {}),
    };
    try {
      return { path: repoRelative(this.root, await writeElicitationTrace(this.root, trace)) };
    } catch (err) {
      return { path: null, problem: errorMessage(err) };
    }
  }

  /** The step ends here: its last trace, and its result. */
  async finish(outcome: GateResult['outcome'], text: string, extra: Partial<GateResult<P>> = {}): Promise<GateResult<P>> {
    const written = await this.trace(outcome, text);
    if (written.problem) text += ` (The trace could not be written: ${written.problem}.)`;
    return { outcome, text, trace: written.path, planHash: this.planHash, ...extra };
  }

  /** A round whose trace cannot be written ends the step: the chain must hold every exchange. */
  traceFailed(problem: string): GateResult<P> {
    return {
      outcome: 'error',
      text: `The trace could not be written (${problem}), so the ${this.step} step stops here. Nothing was changed.`,
      trace: null,
      planHash: this.planHash,
    };
  }

  /** Error messages name paths and other outside text: shown as one line. The outcome comes from the one table (common/error-outcomes.ts). */
  refusedBy(err: unknown, extra: Partial<GateResult<P>> = {}): Promise<GateResult<P>> {
    const { outcome, badInput, known, message } = outcomeForError(err);
    const text = !known
      ? `Internal error: ${showLine(message)}.`
      : outcome === 'precondition_failed'
        ? `${asSentence(showLine(message))} Nothing was changed.`
        : showLine(message);
    return this.finish(outcome as RefusalOutcome, text, { ...extra, ...(badInput ? { badInput } : {}) });
  }
}

const asSentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
