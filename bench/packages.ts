/**
 * Package management benchmarks against a real `bosun serve` process:
 * 1. upload and onboard a 1 GiB package over HTTP — wall time next to `sha256sum` of the same
 *    file (target ≤ 1.5×) and the server's peak RSS (target ≤ 200 MiB);
 * 2. 20 concurrent uploads of small packages (all ONBOARDED, none lost);
 * 3. GET /vnfpkgm/v1/vnf_packages first page with 10,000 packages stored (target p99 < 30 ms).
 * BOSUN_BENCH_IMAGE_MIB (default 1024), BOSUN_BENCH_PACKAGES (default 10000), BOSUN_BENCH_DURATION (s, 5),
 * BOSUN_BENCH_NODE_OPTIONS (Node.js options for the server; bin/bosun sets --max-semi-space-size=8 unless they name one).
 *
 * The 1 GiB upload is sent by curl (`curl -T`, as an operator would), the server's CPU time for
 * it reported alongside. On a small machine the client shares the cores with the server, so the
 * same upload is also measured with a Node.js client streaming the file in MiB chunks
 * (node:http), and with fetch() and a web-stream body (which burns two to four CPU-seconds per
 * GiB by itself), on the same server.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import autocannon from 'autocannon';
import { buildPackage } from '../src/vnfd/csar/build.ts';
import { SAMPLES_DIR } from '../test/support/samples.ts';
import { startBosun } from './support/bosun-process.ts';
import { addLargeImage, samplePackageFolder } from './support/packages.ts';
import { printRows, type Row } from './support/report.ts';

const imageMiB = Number(process.env.BOSUN_BENCH_IMAGE_MIB ?? '1024');
const packageCount = Number(process.env.BOSUN_BENCH_PACKAGES ?? '10000');
const duration = Number(process.env.BOSUN_BENCH_DURATION ?? '5');

async function startServer(env: Record<string, string>) {
  const nodeOptions = process.env.BOSUN_BENCH_NODE_OPTIONS;
  const { child, url, stop } = await startBosun({
    ...env,
    ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
  });
  const peakRssMiB = () => {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  };
  /** User + system CPU seconds the server has used so far. */
  const cpuSeconds = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  return { url, peakRssMiB, cpuSeconds, stop };
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const r = await fetch(url, init);
  if (!r.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

/** PUT the zip with node:http, streamed from the file in MiB chunks (as curl sends it). */
function putStreamed(url: string, zip: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/zip', 'content-length': statSync(zip).size },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    pipeline(createReadStream(zip, { highWaterMark: 2 ** 20 }), req).catch(reject);
  });
}

/** PUT the zip with curl. */
function putCurl(url: string, zip: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const args = ['-sS', '-T', zip, '-H', 'content-type: application/zip', '-w', '\n%{http_code}', url];
    execFile('curl', args, (err, stdout) => {
      if (err) return reject(err);
      const cut = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(cut + 1)), text: stdout.slice(0, cut) });
    });
  });
}

const hasCurl = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** PUT the zip with fetch() and a web-stream body. */
async function putFetch(url: string, zip: string): Promise<{ status: number; text: string }> {
  const put = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/zip', 'content-length': String(statSync(zip).size) },
    body: Readable.toWeb(createReadStream(zip)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  return { status: put.status, text: await put.text() };
}

interface Onboarded {
  id: string;
  /** create + upload + until ONBOARDED (or back to CREATED). */
  ms: number;
  /** create + upload (the PUT answered). */
  uploadMs: number;
  state: string;
}

type Client = 'curl' | 'stream' | 'fetch';
const PUT: Record<Client, typeof putFetch> = { curl: putCurl, stream: putStreamed, fetch: putFetch };

async function onboard(base: string, zip: string, client: Client = 'fetch'): Promise<Onboarded> {
  const started = performance.now();
  const pkg = await json<{ id: string }>(`${base}/vnfpkgm/v1/vnf_packages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const url = `${base}/vnfpkgm/v1/vnf_packages/${pkg.id}/package_content`;
  const put = await PUT[client](url, zip);
  if (put.status !== 202) throw new Error(`upload: ${put.status} ${put.text}`);
  const uploadMs = performance.now() - started;
  for (;;) {
    const info = await json<{ onboardingState: string }>(`${base}/vnfpkgm/v1/vnf_packages/${pkg.id}`);
    if (info.onboardingState === 'ONBOARDED' || info.onboardingState === 'CREATED') {
      return { id: pkg.id, ms: performance.now() - started, uploadMs, state: info.onboardingState };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Disable and delete a package (so that its vnfdId can be onboarded again). */
async function remove(base: string, id: string): Promise<void> {
  await json(`${base}/vnfpkgm/v1/vnf_packages/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ operationalState: 'DISABLED' }),
  });
  const r = await fetch(`${base}/vnfpkgm/v1/vnf_packages/${id}`, { method: 'DELETE' });
  if (r.status !== 204) throw new Error(`delete: ${r.status} ${await r.text()}`);
}

const work = await mkdtemp(join(tmpdir(), 'bosun-bench-pkg-'));
const rows: Row[] = [];
const _base = join(SAMPLES_DIR, 'vnflcm1.zip');
try {
  const env = {
    BOSUN_DATABASE_URL: `sqlite:${join(work, 'bosun.db')}`,
    BOSUN_BLOBS_DIR: join(work, 'blobs'),
    BOSUN_BLOBS_CACHE_DIR: join(work, 'cache'),
    BOSUN_SECURITY_KEY_FILE: join(work, 'secret.key'),
    BOSUN_LOG_LEVEL: 'info',
    BOSUN_LOG_ACCESS_LOG: 'false',
    BOSUN_PAGING_DEFAULT_PAGE_SIZE: '100',
  };
  const server = await startServer(env);
  try {
    // 1. One package with a 1 GiB image, hash-checked from TOSCA.meta.
    const big = join(work, 'big');
    await samplePackageFolder(big, randomUUID());
    await addLargeImage(big, imageMiB);
    const bigZip = join(work, 'big.zip');
    await buildPackage(big, bigZip);
    // The GiB just written would otherwise be written back to disk during the timed part.
    execFileSync('sync');
    let t = performance.now();
    execFileSync('sha256sum', [bigZip]);
    const sha256sumS = (performance.now() - t) / 1000;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const ratio = (ms: number) => `${(ms / 1000 / sha256sumS).toFixed(2)}× sha256sum`;
    const primary: Client = hasCurl ? 'curl' : 'stream';
    const cpuBefore = server.cpuSeconds();
    const result = await onboard(server.url, bigZip, primary);
    if (result.state !== 'ONBOARDED') throw new Error('the 1 GiB package did not onboard');
    const cpu = server.cpuSeconds() - cpuBefore;
    const peakRss = server.peakRssMiB();
    rows.push(
      [
        `sha256sum of the ${(statSync(bigZip).size / 2 ** 20).toFixed(0)} MiB package`,
        `${sha256sumS.toFixed(2)} s`,
        '',
      ],
      [
        `create + upload (${primary === 'curl' ? 'curl -T' : 'node:http'}) + onboard it over HTTP`,
        seconds(result.ms),
        `${ratio(result.ms)} (target ≤ 1.5×); Tacker 38.8 s`,
      ],
      [
        `  of which create + upload, then onboarding`,
        `${seconds(result.uploadMs)}, ${seconds(result.ms - result.uploadMs)}`,
        '',
      ],
      [`  server CPU time (user + system)`, `${cpu.toFixed(2)} s`, ''],
      [`  server peak RSS`, `${peakRss.toFixed(0)} MiB`, 'target ≤ 200 MiB; Tacker 1,235 MiB'],
    );
    // The same package again from Node.js clients (their own CPU cost is part of the time).
    let last = result.id;
    const others: [Client, string][] = [
      ['stream', 'node:http, MiB chunks'],
      ['fetch', 'fetch()'],
    ];
    for (const [client, label] of others) {
      if (client === primary) continue;
      await remove(server.url, last);
      const again = await onboard(server.url, bigZip, client);
      if (again.state !== 'ONBOARDED') throw new Error(`the 1 GiB package did not onboard (${client})`);
      last = again.id;
      rows.push([`  the same, uploaded with ${label}`, seconds(again.ms), ratio(again.ms)]);
    }

    // 2. 20 concurrent uploads of small packages, each with its own vnfdId.
    const small: string[] = [];
    for (let i = 0; i < 20; i++) {
      const dir = join(work, `small-${i}`);
      await samplePackageFolder(dir, randomUUID());
      const zip = `${dir}.zip`;
      await buildPackage(dir, zip);
      small.push(zip);
    }
    t = performance.now();
    const outcomes = await Promise.all(small.map((zip) => onboard(server.url, zip)));
    const wall = (performance.now() - t) / 1000;
    const onboarded = outcomes.filter((o) => o.state === 'ONBOARDED').length;
    const sorted = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    rows.push([
      '20 concurrent small uploads → ONBOARDED',
      `${onboarded}/20 in ${wall.toFixed(2)} s`,
      `p50 ${sorted[9].toFixed(0)} ms, max ${sorted[19].toFixed(0)} ms each; Tacker 0.95 s for one`,
    ]);

    // 3. The first page of the list with packageCount packages stored.
    t = performance.now();
    const creates = Array.from({ length: packageCount }, (_, i) => i);
    for (let i = 0; i < creates.length; i += 50) {
      await Promise.all(
        creates.slice(i, i + 50).map((n) =>
          json(`${server.url}/vnfpkgm/v1/vnf_packages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ userDefinedData: { bench: String(n) } }),
          }),
        ),
      );
    }
    const createRate = packageCount / ((performance.now() - t) / 1000);
    rows.push([
      `create ${packageCount.toLocaleString('en')} packages (50 at a time)`,
      `${createRate.toFixed(0)} req/s`,
      '',
    ]);
    const url = `${server.url}/vnfpkgm/v1/vnf_packages`;
    await autocannon({ url, connections: 1, duration: 1 });
    for (const connections of [1, 10]) {
      const r = await autocannon({ url, connections, duration });
      rows.push([
        `GET /vnfpkgm/v1/vnf_packages, first page of 100 (${connections} conn)`,
        `${r.requests.average.toFixed(0)} req/s`,
        `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${connections === 1 ? ' (target p99 < 30 ms)' : ''}; errors ${r.errors + r.non2xx}; Tacker 3.4 req/s with 1,000`,
      ]);
    }
  } finally {
    await server.stop();
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

printRows('Bosun package management benchmarks (server: bosun serve, SQLite, access log off)', rows);
