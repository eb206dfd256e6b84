import { STATE } from '../../repo/state-paths.js';

/**
 * Traces form two chains, each with its own head (docs/traces.md#two-chains):
 * - the gated chain: every elicitation trace (approve, migrate, rollback, acknowledge, prune), and the
 *   sampling traces earlier versions wrote into it; its head is `trace-chain.json`. It is the record a
 *   team may commit and review.
 * - the read-only chain: the sampling traces of analyze and propose (the narration), marked
 *   `chain: "read-only"`, in the same `sampling-traces/` folder, with their head beside them. The folder
 *   carries a `.gitignore` of its own that ignores all of them, so that a read-only command leaves a
 *   tree whose traces are committed as clean as it found it.
 * A trace is placed by its folder and its own `chain` field (covered by the next trace's `prev`): an
 * elicitation trace is always gated, so nothing in the read-only chain can acknowledge or prune.
 */
export type ChainName = 'gated' | 'read-only';

export interface TraceChain {
  name: ChainName;
  /** Where the chain's head is. */
  head: string;
  /** A path the head may name as its newest trace (the head is untrusted input, never followed elsewhere). */
  file: RegExp;
}

export const GATED_CHAIN: TraceChain = {
  name: 'gated',
  head: STATE.chain,
  file: /^\.copilot-state\/(elicitation|sampling)-traces\/[^/.][^/]*\.json$/,
};

export const READ_ONLY_CHAIN: TraceChain = {
  name: 'read-only',
  head: STATE.readOnlyChain,
  file: /^\.copilot-state\/sampling-traces\/[^/.][^/]*\.json$/,
};

export const CHAINS = [GATED_CHAIN, READ_ONLY_CHAIN] as const;

/** The chain a trace of this folder belongs to, by its own `chain` field. */
export function chainOf(kind: 'elicitation' | 'sampling', json: unknown): ChainName {
  return kind === 'sampling' && typeof json === 'object' && json !== null && (json as { chain?: unknown }).chain === 'read-only'
    ? 'read-only'
    : 'gated';
}

/** `sampling-traces/.gitignore`: ignores every file of the folder, itself and the head included. */
export const READ_ONLY_GITIGNORE = `# Written by copilot-onboard: the read-only traces (the narration of analyze and propose) and their
# chain head stay on this machine, so that a read-only command never changes a committed tree.
# The traces of the gated steps (elicitation-traces/, trace-chain.json) may be committed.
*
`;
