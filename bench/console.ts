/**
 * `npm run bench -- console`: the web console as an operator's browser sees it, in Debian's
 * chromium driven by playwright-core against a real `bosun serve` on a throw-away SQLite
 * database.
 *   - first load of /ui/: bytes of every asset as sent gzip-encoded (what a gzip-only client
 *     transfers; target < 300 KB) and as the browser received them (it also takes brotli);
 *   - time to interactive: from navigation start until the first page has rendered and no long
 *     task (> 50 ms, PerformanceObserver) runs for 500 ms after (target < 1 s), with an empty
 *     cache each round;
 *   - the instances list with 100 instances on its page: from the list answer's responseEnd
 *     (Resource Timing) to the moment the 100th row is in the table (target < 200 ms).
 * BOSUN_BENCH_RUNS rounds (default 5) after one that warms chromium and the server up; the
 * median and the worst are reported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { onboardOnce } from '../test/http/vnflcm/lcm-support.ts';
import { startBosun } from './support/bosun-process.ts';
import { printRows, type Row } from './support/report.ts';

const runs = Number(process.env.BOSUN_BENCH_RUNS ?? '5');
const CHROMIUM = process.env.BOSUN_CHROMIUM ?? '/usr/bin/chromium';
const INSTANCES = 100;

/** Runs in the page before its scripts: records when the first heading and the 100th row appear, and long tasks. */
const PROBE = `
  window.__bench = { heading: undefined, rows: undefined, longTaskEnd: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTaskEnd = Math.max(window.__bench.longTaskEnd, e.startTime + e.duration);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver(() => {
    const b = window.__bench;
    if (b.heading === undefined && document.querySelector('main h1')) b.heading = performance.now();
    if (b.rows === undefined && document.querySelectorAll('main tbody tr').length >= ${INSTANCES}) b.rows = performance.now();
  }).observe(document, { childList: true, subtree: true });
`;

interface Probe {
  heading?: number;
  rows?: number;
  longTaskEnd: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const ms = (x: number) => `${x.toFixed(0)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The URLs of the first load and the bytes the browser received for each (encoded, headers excluded). */
async function firstLoad(url: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const urls = new Map<string, string>();
    const received = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
    cdp.on('Network.loadingFinished', (e) => received.set(e.requestId, e.encodedDataLength));
    await page.goto(`${url}/ui/`, { waitUntil: 'networkidle' });
    const assets = [...urls.entries()]
      .filter(([, u]) => new URL(u).pathname.startsWith('/ui/'))
      .map(([id, u]) => ({ url: u, received: received.get(id) ?? 0 }));
    return assets;
  } finally {
    await browser.close();
  }
}

/** Body bytes of an asset sent to a client that accepts only gzip. */
async function gzipBytes(url: string): Promise<{ bytes: number; encoding: string }> {
  const res = await fetch(url, { headers: { 'Accept-Encoding': 'gzip' } });
  // fetch decodes the body; read the raw length from the header, else measure what arrives.
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  const encoding = res.headers.get('content-encoding') ?? 'identity';
  const body = new Uint8Array(await res.arrayBuffer());
  return { bytes: Number.isFinite(length) ? length : body.length, encoding };
}

async function timeToInteractive(url: string): Promise<{ rendered: number; interactive: number }[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const out: { rendered: number; interactive: number }[] = [];
  try {
    // One round more than counted: the first warms chromium and the server up.
    for (let i = 0; i <= runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(PROBE);
      const page = await context.newPage();
      await page.goto(`${url}/ui/`);
      await page.waitForFunction(
        () => (globalThis as unknown as { __bench: Probe }).__bench.heading !== undefined,
      );
      // Quiet for 500 ms: no long task ended in the last half second.
      await page.waitForFunction(
        () => {
          const b = (globalThis as unknown as { __bench: Probe }).__bench;
          return performance.now() - Math.max(b.heading ?? 0, b.longTaskEnd) >= 500;
        },
        undefined,
        { polling: 50 },
      );
      const probe = await page.evaluate(() => (globalThis as unknown as { __bench: Probe }).__bench);
      const rendered = probe.heading ?? Number.NaN;
      if (i > 0) out.push({ rendered, interactive: Math.max(rendered, probe.longTaskEnd) });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}

async function listRender(url: string): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const out: number[] = [];
  try {
    for (let i = 0; i <= runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(PROBE);
      const page = await context.newPage();
      await page.goto(`${url}/ui/instances`);
      await page.waitForFunction(
        () => (globalThis as unknown as { __bench: Probe }).__bench.rows !== undefined,
        undefined,
        {
          timeout: 30_000,
        },
      );
      const { rows, answered } = await page.evaluate(() => {
        const answers = performance
          .getEntriesByType('resource')
          .filter((e) =>
            /\/vnflcm\/v2\/vnf_instances(\?|$)/.test(new URL(e.name).pathname + new URL(e.name).search),
          )
          .map((e) => (e as unknown as { responseEnd: number }).responseEnd);
        return {
          rows: (globalThis as unknown as { __bench: Probe }).__bench.rows ?? Number.NaN,
          answered: Math.max(...answers),
        };
      });
      if (i > 0) out.push(rows - answered);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'bosun-bench-console-'));
const server = await startBosun({
  BOSUN_DATABASE_URL: `sqlite:${join(dir, 'bosun.db')}`,
  BOSUN_BLOBS_DIR: join(dir, 'blobs'),
  BOSUN_SECURITY_KEY_FILE: join(dir, 'secret.key'),
  BOSUN_PAGING_PAGE_SIZES: JSON.stringify({ vnf_instances: INSTANCES }),
});
try {
  await seedInstances(server.url);
  const assets = await firstLoad(server.url);
  const gzip = await Promise.all(assets.map((a) => gzipBytes(a.url)));
  const gzipTotal = gzip.reduce((sum, g) => sum + g.bytes, 0);
  const receivedTotal = assets.reduce((sum, a) => sum + a.received, 0);
  const notGzip = assets.filter((_, i) => gzip[i].encoding !== 'gzip').map((a) => new URL(a.url).pathname);
  const tti = await timeToInteractive(server.url);
  const list = await listRender(server.url);
  const rows: Row[] = [
    [
      'first load of /ui/, gzip',
      kb(gzipTotal),
      `${assets.length} assets (target < 300 KB)${notGzip.length ? `; not gzip-encoded: ${notGzip.join(', ')}` : ''}`,
    ],
    [
      'first load of /ui/, as chromium received it',
      kb(receivedTotal),
      'on the wire with headers (brotli where offered)',
    ],
    [
      'first page rendered',
      `median ${ms(median(tti.map((t) => t.rendered)))}`,
      `worst ${ms(Math.max(...tti.map((t) => t.rendered)))}, ${runs} cold loads`,
    ],
    [
      'time to interactive',
      `median ${ms(median(tti.map((t) => t.interactive)))}`,
      `worst ${ms(Math.max(...tti.map((t) => t.interactive)))} (target < 1 s)`,
    ],
    [
      `instances list, ${INSTANCES} rows after the answer`,
      `median ${ms(median(list))}`,
      `worst ${ms(Math.max(...list))} (target < 200 ms)`,
    ],
  ];
  printRows('web console in chromium (1280×800, empty cache)', rows);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** 100 VNF instances (created, not instantiated: the list shows them all the same). */
async function seedInstances(url: string): Promise<void> {
  const { vnfdId } = await onboardOnce(url);
  for (let i = 0; i < INSTANCES; i++) {
    const res = await fetch(`${url}/vnflcm/v2/vnf_instances`, {
      method: 'POST',
      headers: { Version: '2.0.0', 'Content-Type': 'application/json' },
      body: JSON.stringify({ vnfdId, vnfInstanceName: `bench-${i}` }),
    });
    if (res.status !== 201) throw new Error(`create instance: ${res.status} ${await res.text()}`);
  }
}
