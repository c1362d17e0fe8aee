/**
 * The real `kubectl` (preinstalled at /usr/bin/kubectl, never installed by the suite) run against
 * a test API server with a generated kubeconfig, a private HOME and discovery cache, so that runs
 * share nothing. Fails clearly when kubectl is missing.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp.ts';
import type { KubeApi } from './index.ts';

export const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Kubectl {
  (args: string[], options?: { input?: string; timeoutMs?: number }): Promise<KubectlResult>;
  /** A long-running kubectl (a watch): its output so far, stopped by PID with `stop()`. */
  start(args: string[]): { child: ChildProcess; output(): string; stop(): void };
}

export function kubectlFor(api: KubeApi, auth: 'token' | 'cert' = 'token'): Kubectl {
  if (!existsSync(KUBECTL)) {
    throw new Error(
      `kubectl is missing at ${KUBECTL}: the fidelity tests need the real kubectl (set KUBECTL to its path)`,
    );
  }
  const home = tempDir('bosun-kubectl-');
  const env = { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: api.kubeconfig(home, auth) };
  const base = ['--cache-dir', join(home, 'cache')];
  const run = ((args, options = {}) =>
    new Promise<KubectlResult>((resolve) => {
      const child = execFile(
        KUBECTL,
        [...base, ...args],
        { env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 16 << 20 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
      if (options.input !== undefined) child.stdin?.end(options.input);
    })) as Kubectl;
  run.start = (args) => {
    const child = spawn(KUBECTL, [...base, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      out += b.toString();
    });
    return {
      child,
      output: () => out,
      stop: () => {
        if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
      },
    };
  };
  return run;
}
