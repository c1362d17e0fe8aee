/**
 * A throw-away PostgreSQL cluster in a temp folder, from the machine's initdb/pg_ctl. Run as
 * the `postgres` user when we are root (PostgreSQL refuses to run as root). Used by the test
 * runner and the benchmarks.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempPostgres {
  url: string;
  /** Stops the server (fast shutdown: sessions are ended) and keeps its data, for an outage. */
  pause(): void;
  /** Starts it again on the same port after `pause`. */
  resume(): void;
  stop(): void;
}

function findBinary(name: string): string {
  const candidates = [
    ...(process.env.PATH ?? '').split(':').map((dir) => join(dir, name)),
    ...(existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort()
          .reverse()
          .map((v) => join('/usr/lib/postgresql', v, 'bin', name))
      : []),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) {
    throw new Error(
      `${name} not found: install PostgreSQL (apt-get install postgresql) or set BOSUN_TEST_PG_URL`,
    );
  }
  return found;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function startTempPostgres(): Promise<TempPostgres> {
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  const dir = mkdtempSync(join(tmpdir(), 'bosun-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`${cmd} failed (${result.status}): ${result.stderr || result.stdout}`);
    }
  };
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  const start = () =>
    run(pgCtl, ['-D', data, '-l', join(dir, 'postgres.log'), '-o', options, '-w', '-t', '60', 'start']);
  start();
  let stopped = false;
  let paused = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pause() {
      run(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
      paused = true;
    },
    resume() {
      start();
      paused = false;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        if (!paused) run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
