import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REQUIRED_BY_CI } from './corpus.js';
import type { Cleanup } from './sandbox.js';

/** tmux drives a real terminal: send-keys to answer, capture-pane to read the screen. */
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** A terminal test's `skip`: false when tmux is here, or when CI requires every test to run (it then fails without tmux). */
export const skipWithoutTmux: string | false = !hasTmux && !REQUIRED_BY_CI ? 'tmux is not installed: terminal tests skipped' : false;

/** `TmuxSession.start`, the session killed when the test `t` ends. */
export function startTmux(t: Cleanup, name: string, command: string, cwd: string): TmuxSession {
  const tm = TmuxSession.start(name, command, cwd);
  t.after(() => tm.kill());
  return tm;
}

/*
 * Each test process has its own tmux server (its own socket, removed when the process exits): test files run in parallel, and a
 * client that reaches a server while the server exits (its last session just killed) fails with
 * "server exited unexpectedly". A server of its own is never shared across processes, and a start
 * that meets a dying server of its own is tried again.
 */
const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'co-tmux-'));
const SOCKET = ['-S', path.join(socketDir, 'socket')];
process.on('exit', () => {
  spawnSync('tmux', [...SOCKET, 'kill-server']);
  fs.rmSync(socketDir, { recursive: true, force: true });
});

function tmux(args: string[]): string {
  return execFileSync('tmux', [...SOCKET, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export class TmuxSession {
  constructor(readonly name: string) {}

  static start(name: string, command: string, cwd: string): TmuxSession {
    spawnSync('tmux', [...SOCKET, 'kill-session', '-t', name]);
    const args = ['new-session', '-d', '-s', name, '-x', '220', '-y', '60', '-c', cwd, `${command}; echo "EXIT=$?"; sleep 60`];
    for (let attempt = 1; ; attempt++) {
      try {
        tmux(args);
        return new TmuxSession(name);
      } catch (err) {
        const stderr = String((err as { stderr?: unknown }).stderr ?? '');
        if (attempt >= 5 || !/server exited unexpectedly|lost server|no server running/.test(stderr)) throw err;
        sleepMs(200 * attempt);
      }
    }
  }

  /** The pane's text; `escapes` keeps the colour escapes as the program wrote them. */
  screen(escapes = false): string {
    return tmux(['capture-pane', '-p', ...(escapes ? ['-e'] : []), '-J', '-S', '-3000', '-t', this.name]);
  }

  async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const s = this.screen();
      if (pattern.test(s)) return s;
      if (Date.now() > end) throw new Error(`timed out waiting for ${pattern} on screen:\n${s.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The last few non-empty lines: where the prompt being asked now is. */
  tail(lines = 6): string {
    return this.screen()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(-lines)
      .join('\n');
  }

  /** Waits until the prompt being asked now matches `pattern`, then types. */
  async answer(pattern: RegExp, ...keys: string[]): Promise<void> {
    const end = Date.now() + 20_000;
    while (!pattern.test(this.tail())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${pattern}; the terminal shows:\n${this.tail(20)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    tmux(['send-keys', '-t', this.name, ...keys]);
    await new Promise((r) => setTimeout(r, 250));
  }

  async exitCode(): Promise<number> {
    const s = await this.waitFor(/EXIT=\d+/, 60_000);
    return Number(/EXIT=(\d+)/.exec(s)![1]);
  }

  kill(): void {
    spawnSync('tmux', [...SOCKET, 'kill-session', '-t', this.name]);
  }
}
