// Types of scripts/action/batches.mjs for the tests and the bench (the script itself is plain JavaScript: the action runs it with Node alone).
export const MAX_JOBS: number;
export function parseRepositories(text: string): string[];
export function repositoriesFrom(env: Record<string, string | undefined>): string[];
export function splitIntoBatches(repositories: string[], options?: { batchSize?: number; maxJobs?: number }): string[][];
export function matrixOf(batches: string[][]): { batch: number; of: number; repositories: string[] }[];
export function listOrganization(organization: string, topic: string, options?: { apiUrl?: string; token?: string }): Promise<string[]>;
