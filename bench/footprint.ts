/**
 * The footprint the Kubernetes manifests' resource requests and limits are set from
 * (deploy/kubernetes/, docs/deploy.md): RSS and CPU of a real `bosun serve --role api` and
 * `--role worker` on PostgreSQL, idle and under a light LCM load (BOSUN_BENCH_FOOTPRINT_INSTANCES
 * instances, default 20, two at a time: create, instantiate, scale out and in, terminate, delete,
 * on the simulated VIM). Read from /proc: VmRSS and VmHWM, utime + stime over wall time.
 */
import { readFileSync } from 'node:fs';
import { startTempPostgres } from '../scripts/postgres.ts';
import { newEnv, type Served, serve, stop } from '../test/http/vnflcm/processes.ts';
import { sampleVariant } from '../test/http/vnflcm/sample-package.ts';
import { printRows, type Row } from './support/report.ts';

const instances = Number(process.env.BOSUN_BENCH_FOOTPRINT_INSTANCES ?? '20');
const IDLE_S = 10;
const LANES = 2;
const H = { Version: '2.0.0', 'content-type': 'application/json' };
const V2 = '/vnflcm/v2';
const TICKS_PER_S = 100;

interface Sample {
  rssKiB: number;
  peakKiB: number;
  cpuTicks: number;
}

function sample(pid: number): Sample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  // Fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { rssKiB: kib('VmRSS'), peakKiB: kib('VmHWM'), cpuTicks: Number(fields[11]) + Number(fields[12]) };
}

/** CPU cores used between two samples taken `seconds` apart. */
const cores = (a: Sample, b: Sample, seconds: number) => (b.cpuTicks - a.cpuTicks) / TICKS_PER_S / seconds;
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

async function call(base: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(base + path, {
    method,
    headers: H,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function until<T>(get: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (done(await get())) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${what} did not finish: ${JSON.stringify(await get())}`);
}

async function onboard(base: string): Promise<string> {
  const { zip, vnfdId } = await sampleVariant('sol_v2_common__basic_lcms_max_individual_vnfc.zip', {
    vnfdId: 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21',
    edit: {
      'Definitions/v2_sample3_df_simple.yaml': (text) =>
        text
          .replaceAll('            implementation: sample-script\n', '            implementation: []\n')
          .replace(/\n {6}artifacts:\n {8}sample-script:\n[^\n]*\n[^\n]*\n[^\n]*\n/, '\n'),
    },
  });
  // The package API is v1 (Version 2.x is the LCM API's): no Version header, its default major.
  const created = await fetch(`${base}/vnfpkgm/v1/vnf_packages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const pkg = (await created.json()) as { id: string };
  const put = await fetch(`${base}/vnfpkgm/v1/vnf_packages/${pkg.id}/package_content`, {
    method: 'PUT',
    headers: { 'content-type': 'application/zip' },
    body: zip,
  });
  if (put.status !== 202) throw new Error(`upload: ${put.status}`);
  await until(
    async () =>
      (await (await fetch(`${base}/vnfpkgm/v1/vnf_packages/${pkg.id}`)).json()) as Record<string, string>,
    (p) => {
      if (p.onboardingState === 'CREATED') throw new Error(`onboarding failed: ${JSON.stringify(p)}`);
      return p.onboardingState === 'ONBOARDED';
    },
    'onboarding',
  );
  return vnfdId;
}

async function operate(base: string, id: string, task: string, body: unknown): Promise<void> {
  const res = await call(base, 'POST', `${V2}/vnf_instances/${id}/${task}`, body);
  if (res.status !== 202) throw new Error(`${task}: ${res.status} ${await res.text()}`);
  const occ = (res.headers.get('location') ?? '').split('/').pop();
  await until(
    async () =>
      (await (await call(base, 'GET', `${V2}/vnf_lcm_op_occs/${occ}`)).json()) as Record<string, string>,
    (o) => {
      if (['FAILED_TEMP', 'FAILED', 'ROLLED_BACK'].includes(o.operationState))
        throw new Error(`${task} failed`);
      return o.operationState === 'COMPLETED';
    },
    task,
  );
}

async function lcmLoad(base: string, vnfdId: string): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next++ < instances) {
      const res = await call(base, 'POST', `${V2}/vnf_instances`, { vnfdId });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
      const { id } = (await res.json()) as { id: string };
      await operate(base, id, 'instantiate', { flavourId: 'simple' });
      await operate(base, id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' });
      await operate(base, id, 'scale', { type: 'SCALE_IN', aspectId: 'VDU1_scale' });
      await operate(base, id, 'terminate', { terminationType: 'FORCEFUL' });
      await call(base, 'DELETE', `${V2}/vnf_instances/${id}`);
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}

const pg = await startTempPostgres();
const served: Served[] = [];
try {
  process.env.BOSUN_TEST_PG_URL = pg.url;
  // The manifests' worker settings (the defaults), not the tests' fast polls and short leases.
  const env = await newEnv('postgres', {
    BOSUN_WORKER_POLL_INTERVAL_MS: '1000',
    BOSUN_WORKER_LEASE_MS: '30000',
  });
  const api = await serve(env, 'api');
  const worker = await serve(env, 'worker');
  served.push(api, worker);
  const pids = { api: api.child.pid ?? 0, worker: worker.child.pid ?? 0 };
  await new Promise((r) => setTimeout(r, 3000));
  const idleFrom = { api: sample(pids.api), worker: sample(pids.worker) };
  await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  const idleTo = { api: sample(pids.api), worker: sample(pids.worker) };
  const vnfdId = await onboard(api.url);
  const loadFrom = { api: sample(pids.api), worker: sample(pids.worker) };
  const started = performance.now();
  await lcmLoad(api.url, vnfdId);
  const seconds = (performance.now() - started) / 1000;
  const loadTo = { api: sample(pids.api), worker: sample(pids.worker) };
  const rows: Row[] = [];
  for (const role of ['api', 'worker'] as const) {
    rows.push(
      [`${role} idle RSS`, mib(idleTo[role].rssKiB), `after ${IDLE_S} s idle`],
      [`${role} idle CPU`, `${(cores(idleFrom[role], idleTo[role], IDLE_S) * 1000).toFixed(0)} mcores`, ''],
      [`${role} loaded RSS`, mib(loadTo[role].rssKiB), `peak ${mib(loadTo[role].peakKiB)} since start`],
      [
        `${role} loaded CPU`,
        `${(cores(loadFrom[role], loadTo[role], seconds) * 1000).toFixed(0)} mcores`,
        `${instances} instances x 4 ops, ${LANES} at a time, ${seconds.toFixed(1)} s`,
      ],
    );
  }
  printRows('Footprint of bosun serve per role (PostgreSQL, simulated VIM)', rows);
} finally {
  await Promise.all(served.map((s) => stop(s.child)));
  await pg.stop();
}
