import type { Session } from './ports.js';

/** What a step needs: the repository, and the session that connects it to a person and a model (call/ports.ts). */
export interface FlowContext {
  root: string;
  session: Session;
  /** Aborted when the client cancels the tool call. */
  signal?: AbortSignal;
  options?: FlowOptions;
  /** Progress and log messages for the client, when it asked for them. */
  report?: FlowReport;
  /** git's listing of the repository, started before the step (the CLI's analyze): the scan takes it instead of starting git. */
  listed?: Promise<string[] | null>;
}

export interface FlowReport {
  progress(done: number, total: number, message: string): void;
  log(level: 'debug' | 'info' | 'notice' | 'warning' | 'error', message: string): void;
}

/** Set by the person who starts the server or the CLI, never by a tool argument. */
export interface FlowOptions {
  /** Migrate on a new branch of this name. */
  branch?: string;
  /** Commit the migrated files, with a message that names the trace. */
  commit?: boolean;
  /**
   * Set by the CLI, whose person reads the results in a terminal: how to run it again. The tool's
   * own sentences then name commands instead of MCP tools (see words.ts).
   */
  cliCommand?: string;
  /**
   * The repository as commands in the tool's sentences pass it to `--repo`: as the person typed it
   * at the CLI, an absolute path otherwise; empty when the command runs in the repository (the
   * working directory). Unset, the server uses the session's repository.
   */
  repoArg?: string;
}
