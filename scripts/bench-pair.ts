// `npm run bench -- --pair BASELINE_CLI`: the figures a change to the tool-call path can move, this
// build (A) against another build's cli.js (B), run in turn (A B A B ...) on one machine so that a
// drift of the machine's speed falls on both: each figure is the median of the ratios A/B taken
// pair by pair, next to the medians of each side.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { approveYes, connect, outcomeOf } from '../tests/helpers/mcp.js';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Spawn `serve`, initialize and tools/list over stdio: the cold start a client waits for, in ms. */
async function coldStart(cli: string, repo: string): Promise<number> {
  const t0 = performance.now();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'serve', '--repo', repo], stderr: 'ignore' }));
  await client.listTools();
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

export interface PairRow {
  figure: string;
  a: string;
  b: string;
  'A/B (median of pairs)': string;
}

/**
 * Cold start: `pairs` pairs of one start each. Approve round trip: one session per build, each in a
 * repository of its own made by `repo()`; `pairs` pairs of blocks of `block` approves, a block's
 * figure its median.
 */
export async function pairBench(a: string, b: string, repo: () => string, pairs = 21, block = 40): Promise<PairRow[]> {
  const row = (figure: string, as: number[], bs: number[]): PairRow => ({
    figure,
    a: `${median(as).toFixed(1)} ms`,
    b: `${median(bs).toFixed(1)} ms`,
    'A/B (median of pairs)': `${median(as.map((x, i) => x / bs[i]!)).toFixed(3)}x`,
  });
  const coldRepo = repo();
  await coldStart(a, coldRepo);
  await coldStart(b, coldRepo);
  const coldA: number[] = [];
  const coldB: number[] = [];
  for (let i = 0; i < pairs; i++) {
    coldA.push(await coldStart(a, coldRepo));
    coldB.push(await coldStart(b, coldRepo));
    process.stderr.write(`cold start pair ${i + 1}/${pairs}\r`);
  }
  const sessions = await Promise.all([a, b].map((cli) => connect({ repo: repo(), elicit: approveYes, cli })));
  for (const s of sessions) await s.call('onboarding_propose');
  const approve = async (s: (typeof sessions)[number]): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < block; i++) {
      const t0 = performance.now();
      const r = await s.call('onboarding_approve');
      times.push(performance.now() - t0);
      if (outcomeOf(r) !== 'approved') throw new Error(`approve answered ${outcomeOf(r)}`);
    }
    return median(times);
  };
  await approve(sessions[0]!);
  await approve(sessions[1]!);
  const tripA: number[] = [];
  const tripB: number[] = [];
  for (let i = 0; i < pairs; i++) {
    tripA.push(await approve(sessions[0]!));
    tripB.push(await approve(sessions[1]!));
    process.stderr.write(`approve pair ${i + 1}/${pairs}\r`);
  }
  for (const s of sessions) await s.close();
  return [
    row('cold start of serve: spawn, initialize, tools/list (stdio)', coldA, coldB),
    row(`approve round trip (instant answer, git repository), median of ${block} per block`, tripA, tripB),
  ];
}
