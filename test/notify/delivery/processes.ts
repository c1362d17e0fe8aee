/**
 * `bosun serve` as a real subprocess for the crash and multi-worker tests, with fast delivery
 * settings through BOSUN_* variables.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabaseUrl, type TestDialect } from '../../support/databases.ts';

const BOSUN = new URL('../../../bin/bosun', import.meta.url).pathname;

export interface Env {
  databaseUrl: string;
  dir: string;
  key: string;
}

export async function newEnv(dialect: TestDialect): Promise<Env> {
  return {
    databaseUrl: await freshDatabaseUrl(dialect),
    dir: mkdtempSync(join(tmpdir(), 'bosun-delivery-')),
    key: randomBytes(32).toString('base64'),
  };
}

export interface Serving {
  child: ChildProcess;
  url: string;
}

/** Starts `bosun serve` and resolves with its URL once it listens. */
export function serve(
  env: Env,
  role: 'all' | 'api' | 'worker',
  extra: Record<string, string> = {},
): Promise<Serving> {
  const child = spawn(BOSUN, ['serve', '--role', role], {
    env: {
      ...process.env,
      BOSUN_DATABASE_URL: env.databaseUrl,
      BOSUN_BLOBS_DIR: join(env.dir, 'blobs'),
      BOSUN_SECURITY_ENCRYPTION_KEY: env.key,
      BOSUN_SERVER_PORT: '0',
      BOSUN_SERVER_BIND: '127.0.0.1',
      BOSUN_WORKER_LEASE_MS: '1000',
      BOSUN_WORKER_POLL_INTERVAL_MS: '50',
      BOSUN_OUTBOUND_ALLOW: '["127.0.0.0/8"]',
      BOSUN_NOTIFY_CALLBACK_TEST: 'false',
      BOSUN_NOTIFY_INITIAL_BACKOFF_MS: '20',
      BOSUN_NOTIFY_MAX_BACKOFF_MS: '100',
      BOSUN_LOG_LEVEL: 'info',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /"msg":"bosun listening"/.test(out) && /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({ child, url: m[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('exit', (code) => reject(new Error(`bosun exited (${code}) before listening:\n${out}`)));
  });
}

export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
