/**
 * `bin/bosun serve` as a real subprocess, for the tests that kill servers (crash recovery) or run
 * several against one database and blob folder (cluster). Settings travel as BOSUN_* variables,
 * as in a deployment; each test adds the ones its subject needs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freshDatabaseUrl, type TestDialect } from './databases.ts';
import { tempDir } from './temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;

/** What the servers of one test share: a fresh database, a blob folder and an encryption key. */
export interface ServerEnv {
  databaseUrl: string;
  blobsDir: string;
  key: string;
}

export async function newServerEnv(dialect: TestDialect, prefix: string): Promise<ServerEnv> {
  const dir = tempDir(prefix);
  return {
    databaseUrl: await freshDatabaseUrl(dialect),
    blobsDir: join(dir, 'blobs'),
    key: randomBytes(32).toString('base64'),
  };
}

export interface Served {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far (JSON log lines). */
  output(): string;
  /**
   * Resolves once the output matches `pattern`; rejects with the output after `timeoutMs`. Log
   * lines are written asynchronously (buffered up to 200 ms), so a line about work that is done
   * may still be on its way.
   */
  logged(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

export type Role = 'all' | 'api' | 'worker';

/**
 * Starts `bosun serve --role <role>` on a free loopback port and resolves with its URL once it
 * listens (with its output when it exits before). Short leases and polls by default, so that a
 * killed server's work is taken over within a test; `vars` adds or overrides BOSUN_* variables.
 */
export function serveProcess(env: ServerEnv, role: Role, vars: Record<string, string> = {}): Promise<Served> {
  const child = spawn(BOSUN, ['serve', '--role', role], {
    env: {
      ...process.env,
      BOSUN_DATABASE_URL: env.databaseUrl,
      BOSUN_BLOBS_DIR: env.blobsDir,
      BOSUN_SECURITY_ENCRYPTION_KEY: env.key,
      BOSUN_SERVER_PORT: '0',
      BOSUN_SERVER_BIND: '127.0.0.1',
      BOSUN_WORKER_LEASE_MS: '1000',
      BOSUN_WORKER_POLL_INTERVAL_MS: '100',
      BOSUN_LOG_LEVEL: 'info',
      ...vars,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters = new Set<() => void>();
  const logged = (pattern: RegExp, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(out)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${out}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return new Promise((resolve, reject) => {
    let listening = false;
    const onOutput = (chunk: Buffer) => {
      out += chunk.toString();
      for (const check of [...waiters]) check();
      if (listening) return;
      const m = /"msg":"bosun listening"/.test(out) && /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        listening = true;
        child.off('exit', onExit);
        resolve({ child, url: m[1], output: () => out, logged });
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`bosun exited (${code}) before listening:\n${out}`));
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    child.once('exit', onExit);
  });
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** A crash: SIGKILL, no shutdown code runs. Resolves once the process is gone. */
export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (exited(child)) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A graceful stop (SIGTERM), with SIGKILL after `killAfterMs` so that a hung shutdown cannot hang the test. */
export function stop(child: ChildProcess, killAfterMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    if (exited(child)) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
