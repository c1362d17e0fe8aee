/**
 * A Bosun cluster as it is deployed, for the fault tests (test/cluster/): a real HAProxy with
 * deploy/haproxy/bosun.cfg in front of API replicas (`bosun serve --role api`, each on a fixed
 * loopback port so that it comes back where HAProxy looks for it) and worker replicas
 * (`--role worker`), all on one PostgreSQL and one blob folder. Every process is started here and
 * stopped by its PID.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { kill9, newServerEnv, type Served, type ServerEnv, serveProcess, stop } from './processes.ts';
import { tempDir } from './temp.ts';

const CONFIG = new URL('../../deploy/haproxy/bosun.cfg', import.meta.url).pathname;

/** HAProxy's health check interval in the tests: a dead or draining replica leaves within ~2 s. */
export const CHECK_MS = 500;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface Replica {
  name: string;
  role: 'api' | 'worker';
  port: number;
  /** The running process; replaced by each restart. */
  served: Served;
  /** How many processes this replica has run (1 + restarts). */
  generation: number;
}

export interface Cluster {
  env: ServerEnv;
  /** The load balancer's URL: what clients use. */
  url: string;
  replicas: Replica[];
  /** Every output of every process this cluster ran, for a failure message. */
  outputs(): string;
  /** SIGKILL, then a new process in its place; resolves once it is back and ready. */
  crash(replica: Replica): Promise<void>;
  /** SIGTERM (a graceful stop, as Kubernetes does), then a new process; resolves once ready. */
  restart(replica: Replica): Promise<void>;
  /** Resolves once HAProxy sends traffic to every API replica. */
  allUp(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  apis?: number;
  workers?: number;
  /** A database URL; a fresh database in the test run's PostgreSQL otherwise. */
  databaseUrl?: string;
  /** BOSUN_* settings of every replica. */
  vars?: Record<string, string>;
}

/** The haproxy process on `bind`, with a stats socket to read its view of the servers. */
async function startHaproxy(bind: string, apis: string[], socket: string): Promise<ChildProcess> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    BOSUN_LB_BIND: bind,
    BOSUN_LB_CHECK_MS: String(CHECK_MS),
    BOSUN_LB_STATS_SOCKET: socket,
  };
  apis.forEach((address, i) => {
    env[`BOSUN_API_${i + 1}`] = address;
  });
  const child = spawn('haproxy', ['-f', CONFIG, '-db'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${out}`);
    if (await canConnect(socket)) return child;
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error(`haproxy did not start:\n${out}`);
}

const canConnect = (path: string) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection(path);
    s.once('connect', () => {
      s.end();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/** HAProxy's `show stat`: each server of the API backend and its status (UP, DOWN, MAINT...). */
export function haproxyServers(socket: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const s = createConnection(socket);
    let text = '';
    s.on('data', (c: Buffer) => {
      text += c.toString();
    });
    s.once('error', reject);
    s.once('end', () => {
      const servers = new Map<string, string>();
      for (const line of text.split('\n')) {
        const [backend, server, ...rest] = line.split(',');
        if (backend === 'bosun_api' && server !== 'BACKEND') servers.set(server, rest[15]);
      }
      resolve(servers);
    });
    s.write('show stat\n');
  });
}

/** Polls `/readyz` of one process until it answers 200. */
async function ready(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms`);
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const { apis = 2, workers = 2 } = options;
  const env = await newServerEnv('postgres', 'bosun-cluster-');
  if (options.databaseUrl) env.databaseUrl = options.databaseUrl;
  const dir = tempDir('bosun-cluster-lb-');
  const socket = join(dir, 'haproxy.sock');
  const ended: string[] = [];
  const replicas: Replica[] = [];
  const vars = options.vars ?? {};
  const launch = async (role: Replica['role'], port: number) =>
    serveProcess(env, role, {
      BOSUN_SIM_OPERATION_DELAY_MS: '0',
      BOSUN_LOG_ACCESS_LOG: 'false',
      BOSUN_SERVER_PORT: String(port),
      // Long enough that a busy machine renews in time, short enough that a dead worker's op occ is
      // taken over within the test.
      BOSUN_WORKER_LEASE_MS: '4000',
      ...vars,
    });
  // The first replica migrates the database alone; the rest start together.
  const add = async (role: Replica['role'], i: number) => {
    const port = await freePort();
    const served = await launch(role, port);
    replicas.push({ name: `${role}${i + 1}`, role, port, served, generation: 1 });
  };
  let lb: ChildProcess | undefined;
  const bind = `127.0.0.1:${await freePort()}`;
  const stopAll = async () => {
    for (const r of replicas) await kill9(r.served.child);
    if (lb) await kill9(lb);
  };
  try {
    await add('api', 0);
    await Promise.all([
      ...Array.from({ length: apis - 1 }, (_, i) => add('api', i + 1)),
      ...Array.from({ length: workers }, (_, i) => add('worker', i)),
    ]);
    replicas.sort((a, b) => a.name.localeCompare(b.name));
    const apiAddresses = replicas.filter((r) => r.role === 'api').map((r) => `127.0.0.1:${r.port}`);
    lb = await startHaproxy(bind, apiAddresses, socket);
  } catch (err) {
    await stopAll();
    throw err;
  }
  const serverName = (r: Replica) => `api${replicas.filter((x) => x.role === 'api').indexOf(r) + 1}`;

  const allUp = async (timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const servers = await haproxyServers(socket);
      if ([...servers.values()].length > 0 && [...servers.values()].every((s) => s === 'UP')) return;
      await sleep(100);
    }
    throw new Error(
      `HAProxy does not see every API replica UP: ${JSON.stringify([...(await haproxyServers(socket))])}`,
    );
  };

  /** Starts the replica's next process and waits until it serves (and, for an API, HAProxy uses it). */
  const relaunch = async (r: Replica) => {
    ended.push(`--- ${r.name} generation ${r.generation}\n${r.served.output()}`);
    r.served = await launch(r.role, r.port);
    r.generation += 1;
    await ready(r.served.url);
    if (r.role === 'api') {
      const name = serverName(r);
      const until = Date.now() + 20_000;
      while ((await haproxyServers(socket)).get(name) !== 'UP') {
        if (Date.now() > until) throw new Error(`HAProxy does not see ${name} UP again`);
        await sleep(50);
      }
    }
  };

  await allUp();
  return {
    env,
    url: `http://${bind}`,
    replicas,
    outputs: () => [...ended, ...replicas.map((r) => `--- ${r.name}\n${r.served.output()}`)].join('\n'),
    async crash(r) {
      await kill9(r.served.child);
      await relaunch(r);
    },
    async restart(r) {
      await stop(r.served.child, 60_000);
      await relaunch(r);
    },
    allUp,
    stop: stopAll,
  };
}
