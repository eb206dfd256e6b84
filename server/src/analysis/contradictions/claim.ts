import type { Scope } from '../../model/model.js';
import type { ActionClaim } from './claim-reader.js';
import type { Polarity } from './verb-polarity.js';

/**
 * What a rule line is read as claiming (claims.ts reads them, conflicts.ts relates them): one shape
 * per kind of reading, each with the fields that kind always sets.
 */

/** What every claim has: what it says, and where it stands (its line, unit, scope, languages, section and label). */
export interface ClaimBase {
  topic: string;
  topicTitle: string;
  value: string;
  positive: boolean;
  path: string;
  line: number;
  /** The unit (paragraph, list item with its nested lines) the claim is in: `path:line`. */
  unit: string;
  text: string;
  scope: Scope;
  langs: Set<string>;
  /** The section the line is in (its nearest heading's text, '' for none) and its bold label ("**Unit Tests**"), if any. */
  section: string;
  label: string | undefined;
}

/**
 * A claim, by how it was read: an option of a topic, a version, "always X" / "never X" (modal), an
 * action on an object (claim-reader.ts), the command a labelled or strict line gives a role, or a fact.
 */
export type Claim = OptionClaim | VersionClaimRead | ModalClaim | ActionClaimRead | RoleClaimRead | FactClaim;

/** Read from a setup step or a table cell: it uses a tool without choosing it, so it contradicts only a rule. */
interface MayBeWeak {
  weak?: true;
}

export interface OptionClaim extends ClaimBase, MayBeWeak {
  kind: 'option';
  /**
   * The option is named only inside a command the line runs ("Run `pnpm test` before every commit"),
   * and the line chooses nothing: it is a side of a conflict only when no rule on its side makes the claim.
   */
  mention?: true;
}

export interface VersionClaimRead extends ClaimBase, MayBeWeak {
  kind: 'version';
}

export interface ModalClaim extends ClaimBase {
  kind: 'modal';
}

export interface ActionClaimRead extends ClaimBase, MayBeWeak {
  kind: 'action';
  /** Must, may or never; the verb as written; words that narrow a prohibition; an exception in its clause. */
  polarity: Polarity;
  verb: string;
  qualifier: string;
  excepted: boolean;
  objectKind: ActionClaim['objectKind'];
}

export interface RoleClaimRead extends ClaimBase {
  kind: 'role';
  /** The commands the line gives, and whether it insists on them. */
  commands: string[];
  strict: boolean;
}

export interface FactClaim extends ClaimBase {
  kind: 'fact';
}

/** Whether a claim only uses a tool or a value (a setup step, a table cell): only the kinds read from commands can be. */
export const isWeak = (c: Claim): boolean => (c.kind === 'option' || c.kind === 'version' || c.kind === 'action') && c.weak === true;
