/** `bin/bosun serve` as real subprocesses sharing one database and blob folder, for crash and cluster tests. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabaseUrl, type TestDialect } from '../../support/databases.ts';

const BOSUN = new URL('../../../bin/bosun', import.meta.url).pathname;

export interface Env {
  databaseUrl: string;
  blobsDir: string;
  key: string;
  extra: Record<string, string>;
}

export async function newEnv(dialect: TestDialect, extra: Record<string, string> = {}): Promise<Env> {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-lcm-proc-'));
  return {
    databaseUrl: await freshDatabaseUrl(dialect),
    blobsDir: join(dir, 'blobs'),
    key: randomBytes(32).toString('base64'),
    extra,
  };
}

export interface Served {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote (JSON log lines). */
  output(): string;
}

/** Starts `bosun serve --role <role>` and resolves once it listens. */
export function serve(env: Env, role: 'all' | 'api' | 'worker'): Promise<Served> {
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
      BOSUN_SIM_OPERATION_DELAY_MS: '0',
      BOSUN_LOG_LEVEL: 'info',
      BOSUN_LOG_ACCESS_LOG: 'false',
      ...env.extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /"msg":"bosun listening"/.test(out) && /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        clearInterval(timer);
        child.off('exit', onExit);
        resolve({ child, url: m[1], output: () => out });
      }
    }, 20);
    const onExit = (code: number | null) => {
      clearInterval(timer);
      reject(new Error(`bosun exited (${code}) before listening:\n${out}`));
    };
    child.once('exit', onExit);
  });
}

export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
