/**
 * `npm run bench [-- name…]`: runs the benchmark suites one after another, each in its own
 * process (so that one suite's memory and JIT state do not colour the next).
 *   foundation  HTTP layer: api_versions vs a hello-world, list paging over 50,000 rows
 *   vnfd        package verification (1 GiB image) vs sha256sum, VNFD parse + model rate
 *   packages    1 GiB upload + onboarding over HTTP, concurrent uploads, list with 10,000 packages
 *   notify      notification deliveries/s, draining 10,000 after a restart, nine fast subscribers next to a slow one
 *   lcm         LCM operations/s and POST→COMPLETED latency on the simulated VIM (SQLite, PostgreSQL with
 *               two workers), 100 concurrent instantiations, instance and op occ lists with 10,000 stored
 *   cli         `bosun --help`, `bosun version`, `bosun vnf list` against a server: median start-to-exit time
 *   fm          alarm list first page with 100,000 alarms stored; raiseAlarms batches of 1,000
 *   fm-alerts   an Alertmanager webhook of 1,000 alerts: alarms committed and notifications queued, SQLite and PostgreSQL
 *   console     the web console in chromium: first load of /ui/ (bytes, time to interactive), a 100-row list's render
 *   metrics     a /metrics scrape with 10,000 op occs per major and 10,000 notifications stored; the backlog queries' plans
 *   openstack   instantiate/terminate of a 4-VDU VNF on mini-openstack, Bosun's share next to Keystone, Heat, Nova…
 *   footprint   RSS and CPU of `bosun serve --role api` and `--role worker`, idle and under light LCM load
 */
import { spawnSync } from 'node:child_process';

const SUITES = [
  'foundation',
  'vnfd',
  'packages',
  'notify',
  'lcm',
  'cli',
  'fm',
  'fm-alerts',
  'console',
  'metrics',
  'openstack',
  'footprint',
];
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !SUITES.includes(w));
if (unknown.length) {
  process.stderr.write(`unknown benchmark suite(s): ${unknown.join(', ')}; known: ${SUITES.join(', ')}\n`);
  process.exit(2);
}
let failed = false;
for (const suite of wanted.length ? wanted : SUITES) {
  const r = spawnSync(process.execPath, [new URL(`./${suite}.ts`, import.meta.url).pathname], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
