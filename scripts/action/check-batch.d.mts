// Types of scripts/action/check-batch.mjs for the tests and the bench (the script itself is plain JavaScript: the action runs it with Node alone).
export interface Outcome {
  code: number;
  said: string;
}
export interface Work {
  clone(repository: string, dir: string): Promise<Outcome>;
  check(repository: string, dir: string, out: string): Promise<Outcome>;
}
export interface Checked {
  repository: string;
  status: 'passed' | 'failed' | 'error';
  problem?: string;
}
export const resultFolder: (repository: string) => string;
export function pool<T>(items: T[], parallel: number, work: (item: T, index: number) => Promise<void>): Promise<void>;
export function processes(o: {
  node: string;
  cli: string;
  git: string;
  failOn: string;
  server: string;
  token: string;
  env: Record<string, string | undefined>;
}): Work;
export function checkRepository(repository: string, o: { results: string; temp: string; work: Work }): Promise<Checked>;
export function checkBatch(repositories: string[], o: { parallel: number; results: string; temp: string; work: Work }): Promise<Checked[]>;
