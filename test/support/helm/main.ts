/**
 * A STAND-IN for the `helm` binary (Helm 3), for tests: no Helm binary can be installed on these
 * machines. It follows Helm 3's CLI contract for what Bosun's Kubernetes driver runs — `version
 * --short`, `install`, `upgrade [--install] [--reuse-values]`, `rollback NAME [REVISION]`,
 * `uninstall`, `get manifest`, `history -o json`, `status -o json`, with `--namespace/-n`,
 * `--kubeconfig`, `--set`, `--values/-f`, `--wait`, `--timeout` — with Helm's exit codes and error
 * messages. Charts (.tgz) are rendered with a Go-template subset (template.ts); the manifests are
 * applied with the real `kubectl apply --server-side` against the kubeconfig given, objects a new
 * revision no longer has are deleted, and `--wait` waits with `kubectl rollout status`. Release
 * history is kept in the cluster as Helm 3 keeps it (Secrets `sh.helm.release.v1.NAME.vN`, type
 * helm.sh/release.v1, labels owner=helm, name, status, version; the release gzipped JSON), so
 * history, rollback and uninstall work from the cluster alone. Not covered: repositories,
 * dependencies/subcharts, hooks, tests, CRDs, --atomic, three-way merge (kubectl's server-side
 * apply stands for it).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { loadChart, renderChart } from './chart.ts';

type Values = Record<string, unknown>;

class HelmError extends Error {}

interface Opts {
  pos: string[];
  flags: Map<string, string[]>;
}

const BOOL = new Set(['wait', 'install', 'reuse-values', 'short', 'keep-history', 'debug']);
const ALIAS: Record<string, string> = { n: 'namespace', f: 'values', o: 'output' };

function parseArgs(argv: string[]): Opts {
  const pos: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const m = /^--?([A-Za-z-]+)(?:=(.*))?$/s.exec(a);
    if (!m) {
      pos.push(a);
      continue;
    }
    const name = ALIAS[m[1] as string] ?? (m[1] as string);
    const value = m[2] ?? (BOOL.has(name) ? 'true' : argv[++i]);
    if (value === undefined) throw new HelmError(`flag needs an argument: --${name}`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { pos, flags };
}

const flag = (o: Opts, name: string) => o.flags.get(name)?.at(-1);

const isMap = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = isMap(v) && isMap(out[k]) ? merge(out[k] as Values, v) : v;
  }
  return out;
}

/** --set a.b=1,c=x as Helm's strvals parses it (ints, booleans, null typed). */
function setValues(exprs: string[]): Values {
  let out: Values = {};
  for (const expr of exprs) {
    for (const pair of expr.split(/(?<!\\),/)) {
      const eq = pair.indexOf('=');
      if (eq < 0) throw new HelmError(`failed parsing --set data: key "${pair}" has no value`);
      const path = pair.slice(0, eq).split('.');
      const raw = pair.slice(eq + 1).replace(/\\,/g, ',');
      const value: unknown = /^-?\d+$/.test(raw)
        ? Number(raw)
        : raw === 'true' || raw === 'false'
          ? raw === 'true'
          : raw === 'null'
            ? null
            : raw;
      const obj = path.reduceRight<unknown>((acc, key) => ({ [key]: acc }), value) as Values;
      out = merge(out, obj);
    }
  }
  return out;
}

function userValues(o: Opts): Values {
  let out: Values = {};
  for (const f of o.flags.get('values') ?? [])
    out = merge(out, (parseYaml(readFileSync(f, 'utf8')) ?? {}) as Values);
  return merge(out, setValues(o.flags.get('set') ?? []));
}

function kubectl(o: Opts, args: string[], input?: string) {
  const base = ['--namespace', flag(o, 'namespace') ?? 'default'];
  const kc = flag(o, 'kubeconfig') ?? process.env.KUBECONFIG;
  if (kc) base.unshift('--kubeconfig', kc);
  const r = spawnSync('kubectl', [...base, ...args], { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw new HelmError(`kubectl: ${r.error.message}`);
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr.trim() };
}

interface Stored {
  name: string;
  namespace: string;
  version: number;
  info: {
    first_deployed: string;
    last_deployed: string;
    deleted: string;
    description: string;
    status: string;
  };
  chart: { metadata: Values; values: Values };
  config: Values;
  manifest: string;
}

const SECRET = (name: string, version: number) => `sh.helm.release.v1.${name}.v${version}`;

function releases(o: Opts, name: string): Stored[] {
  const r = kubectl(o, ['get', 'secrets', '-l', `owner=helm,name=${name}`, '-o', 'json']);
  if (r.code !== 0) throw new HelmError(`query: failed to query with labels: ${r.stderr}`);
  const items = (JSON.parse(r.stdout) as { items: { data?: { release?: string } }[] }).items;
  return items
    .map((s) => {
      const encoded = Buffer.from(s.data?.release ?? '', 'base64').toString('utf8');
      return JSON.parse(gunzipSync(Buffer.from(encoded, 'base64')).toString('utf8')) as Stored;
    })
    .sort((a, b) => a.version - b.version);
}

function store(o: Opts, rel: Stored): void {
  const encoded = gzipSync(JSON.stringify(rel)).toString('base64');
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'helm.sh/release.v1',
    metadata: {
      name: SECRET(rel.name, rel.version),
      labels: { owner: 'helm', name: rel.name, status: rel.info.status, version: String(rel.version) },
    },
    data: { release: Buffer.from(encoded).toString('base64') },
  };
  const r = kubectl(
    o,
    ['apply', '--server-side', '--field-manager', 'helm', '--force-conflicts', '--validate=false', '-f', '-'],
    JSON.stringify(secret),
  );
  if (r.code !== 0) throw new HelmError(`create: failed to create: ${r.stderr}`);
}

interface Ref {
  kind: string;
  name: string;
}

const objectsOf = (manifest: string): { ref: Ref; body: Values }[] =>
  parseAllDocuments(manifest)
    .map((d) => d.toJS() as Values | null)
    .filter(isMap)
    .map((body) => ({
      ref: { kind: String(body.kind), name: String((body.metadata as Values)?.name) },
      body,
    }));

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/** Applies a revision's manifest, deletes what the previous one had and this one has not, waits. */
function deploy(o: Opts, rel: Stored, previous: string | undefined): void {
  const objects = objectsOf(rel.manifest);
  for (const { body } of objects) {
    const meta = (body.metadata ?? {}) as Values;
    meta.annotations = {
      ...((meta.annotations as Values) ?? {}),
      'meta.helm.sh/release-name': rel.name,
      'meta.helm.sh/release-namespace': rel.namespace,
    };
    meta.labels = { ...((meta.labels as Values) ?? {}), 'app.kubernetes.io/managed-by': 'Helm' };
    body.metadata = meta;
  }
  if (objects.length) {
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects.map((x) => x.body) });
    const r = kubectl(
      o,
      [
        'apply',
        '--server-side',
        '--field-manager',
        'helm',
        '--force-conflicts',
        '--validate=false',
        '-f',
        '-',
      ],
      list,
    );
    if (r.code !== 0) throw new HelmError(r.stderr.replace(/^error: /i, ''));
  }
  const keep = new Set(objects.map((x) => `${x.ref.kind}/${x.ref.name}`));
  for (const { ref } of objectsOf(previous ?? '')) {
    if (!keep.has(`${ref.kind}/${ref.name}`)) {
      kubectl(o, ['delete', ref.kind, ref.name, '--ignore-not-found', '--wait=false']);
    }
  }
  if (flag(o, 'wait') !== 'true') return;
  const timeout = flag(o, 'timeout') ?? '5m0s';
  for (const { ref } of objects) {
    if (!WORKLOADS.has(ref.kind)) continue;
    const r = kubectl(o, [
      'rollout',
      'status',
      `${ref.kind.toLowerCase()}/${ref.name}`,
      `--timeout=${timeout}`,
    ]);
    if (r.code !== 0) throw new HelmError(`context deadline exceeded: ${r.stderr}`);
  }
}

const now = () => new Date().toISOString();

function newRelease(
  o: Opts,
  name: string,
  version: number,
  chartPath: string,
  config: Values,
  first?: string,
): Stored {
  const chart = loadChart(chartPath);
  const namespace = flag(o, 'namespace') ?? 'default';
  const values = merge(chart.values, config);
  const manifest = renderChart(chart, values, { name, namespace, revision: version, service: 'Helm' });
  const t = now();
  return {
    name,
    namespace,
    version,
    info: {
      first_deployed: first ?? t,
      last_deployed: t,
      deleted: '',
      description: '',
      status: 'pending-install',
    },
    chart: { metadata: chart.metadata, values: chart.values },
    config,
    manifest,
  };
}

/** Marks the release deployed (the others superseded), or failed with the error. */
function settle(
  o: Opts,
  rel: Stored,
  all: Stored[],
  work: () => void,
  action: string,
  description: string,
): void {
  try {
    work();
  } catch (e) {
    rel.info.status = 'failed';
    rel.info.description = `${action} failed: ${(e as Error).message}`;
    store(o, rel);
    throw new HelmError(`${action.toUpperCase()} FAILED: ${(e as Error).message}`);
  }
  for (const r of all) {
    if (r.info.status === 'deployed') {
      r.info.status = 'superseded';
      store(o, r);
    }
  }
  rel.info.status = 'deployed';
  rel.info.description = description;
  store(o, rel);
}

function install(o: Opts, name: string, chartPath: string): void {
  const all = releases(o, name);
  if (all.some((r) => r.info.status !== 'uninstalled')) {
    throw new HelmError('INSTALLATION FAILED: cannot re-use a name that is still in use');
  }
  const rel = newRelease(o, name, (all.at(-1)?.version ?? 0) + 1, chartPath, userValues(o));
  store(o, rel);
  settle(o, rel, all, () => deploy(o, rel, undefined), 'installation', 'Install complete');
  console.log(`NAME: ${name}\nNAMESPACE: ${rel.namespace}\nSTATUS: deployed\nREVISION: ${rel.version}`);
}

function upgrade(o: Opts, name: string, chartPath: string): void {
  const all = releases(o, name);
  const deployed = all.filter((r) => r.info.status === 'deployed').at(-1);
  if (!all.length && flag(o, 'install') === 'true') {
    install(o, name, chartPath);
    return;
  }
  if (!deployed) throw new HelmError(`UPGRADE FAILED: "${name}" has no deployed releases`);
  const config = flag(o, 'reuse-values') === 'true' ? merge(deployed.config, userValues(o)) : userValues(o);
  const rel = newRelease(
    o,
    name,
    (all.at(-1)?.version ?? 0) + 1,
    chartPath,
    config,
    deployed.info.first_deployed,
  );
  rel.info.status = 'pending-upgrade';
  store(o, rel);
  settle(o, rel, all, () => deploy(o, rel, deployed.manifest), 'upgrade', 'Upgrade complete');
  console.log(`Release "${name}" has been upgraded. Happy Helming!\nREVISION: ${rel.version}`);
}

function rollback(o: Opts, name: string, revision: string | undefined): void {
  const all = releases(o, name);
  if (!all.length) throw new HelmError('release: not found');
  const current = all.at(-1) as Stored;
  const wanted = revision && revision !== '0' ? Number(revision) : current.version - 1;
  const target = all.find((r) => r.version === wanted);
  if (!target) throw new HelmError(`release has no ${wanted} version`);
  const deployed = all.filter((r) => r.info.status === 'deployed').at(-1);
  const rel: Stored = {
    ...structuredClone(target),
    version: current.version + 1,
    info: { ...target.info, last_deployed: now(), status: 'pending-rollback', description: '' },
  };
  store(o, rel);
  settle(
    o,
    rel,
    all,
    () => deploy(o, rel, deployed?.manifest ?? current.manifest),
    'rollback',
    `Rollback to ${wanted}`,
  );
  console.log('Rollback was a success! Happy Helming!');
}

function uninstall(o: Opts, name: string): void {
  const all = releases(o, name);
  const last = all.at(-1);
  if (!last) throw new HelmError(`uninstall: Release not loaded: ${name}: release: not found`);
  for (const { ref } of objectsOf(last.manifest).reverse()) {
    const r = kubectl(o, [
      'delete',
      ref.kind,
      ref.name,
      '--ignore-not-found',
      `--wait=${flag(o, 'wait') === 'true'}`,
    ]);
    if (r.code !== 0) throw new HelmError(`uninstallation completed with 1 error(s): ${r.stderr}`);
  }
  if (flag(o, 'keep-history') === 'true') {
    last.info.status = 'uninstalled';
    store(o, last);
  } else {
    for (const r of all) kubectl(o, ['delete', 'secret', SECRET(name, r.version), '--ignore-not-found']);
  }
  console.log(`release "${name}" uninstalled`);
}

function latest(o: Opts, name: string): Stored {
  const last = releases(o, name).at(-1);
  if (!last) throw new HelmError('release: not found');
  return last;
}

function main(argv: string[]): void {
  const o = parseArgs(argv);
  const [cmd, ...args] = o.pos;
  const need = (n: number, usage: string) => {
    if (args.length < n) throw new HelmError(`"helm ${usage}" requires ${n} argument${n > 1 ? 's' : ''}`);
  };
  switch (cmd) {
    case 'version':
      console.log(flag(o, 'short') === 'true' ? 'v3.14.4+gstandin' : 'version.BuildInfo{Version:"v3.14.4"}');
      return;
    case 'install':
      need(2, 'install');
      install(o, args[0] as string, args[1] as string);
      return;
    case 'upgrade':
      need(2, 'upgrade');
      upgrade(o, args[0] as string, args[1] as string);
      return;
    case 'rollback':
      need(1, 'rollback');
      rollback(o, args[0] as string, args[1]);
      return;
    case 'uninstall':
    case 'delete':
      need(1, 'uninstall');
      uninstall(o, args[0] as string);
      return;
    case 'get':
      if (args[0] !== 'manifest') throw new HelmError(`unknown command "${args[0]}" for "helm get"`);
      need(2, 'get manifest');
      process.stdout.write(latest(o, args[1] as string).manifest);
      return;
    case 'history': {
      need(1, 'history');
      const all = releases(o, args[0] as string);
      if (!all.length) throw new HelmError('release: not found');
      const rows = all.map((r) => ({
        revision: r.version,
        updated: r.info.last_deployed,
        status: r.info.status,
        chart: `${r.chart.metadata.name}-${r.chart.metadata.version}`,
        app_version: String(r.chart.metadata.appVersion ?? ''),
        description: r.info.description,
      }));
      console.log(JSON.stringify(rows));
      return;
    }
    case 'status': {
      need(1, 'status');
      const r = latest(o, args[0] as string);
      console.log(
        JSON.stringify({
          name: r.name,
          info: r.info,
          config: r.config,
          manifest: r.manifest,
          version: r.version,
          namespace: r.namespace,
        }),
      );
      return;
    }
    default:
      throw new HelmError(`unknown command "${cmd ?? ''}" for "helm"`);
  }
}

try {
  main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`Error: ${(e as Error).message}\n`);
  process.exit(1);
}
