/**
 * The stand-in helm (helm, main.ts) on its own, against the test API server with the real
 * kubectl: Tacker's Helm sample chart installed with --set, re-install refused as Helm refuses it,
 * upgraded with --reuse-values, rolled back to a revision, uninstalled; release history kept in the
 * cluster as Helm 3 keeps it (sh.helm.release.v1 Secrets) and Helm's errors on missing releases.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { extractPackage } from '../extract.ts';
import { eventually } from '../kube-api/eventually.ts';
import { type KubeApi, startKubeApi } from '../kube-api/index.ts';
import { type Kubectl, kubectlFor } from '../kube-api/kubectl.ts';
import { SAMPLES_DIR } from '../samples.ts';
import { tempDir } from '../temp.ts';

export const HELM_STAND_IN = new URL('./helm', import.meta.url).pathname;

let api: KubeApi;
let kubectl: Kubectl;
let kubeconfig: string;
let chart: string;

before(async () => {
  api = await startKubeApi({ nodes: ['node-1'] });
  kubectl = kubectlFor(api);
  kubeconfig = api.kubeconfig(tempDir('bosun-helm-'));
  const dir = tempDir('bosun-helm-sample-');
  await extractPackage(join(SAMPLES_DIR, 'sol_kubernetes_v2__test_helm_instantiate.zip'), dir);
  chart = join(dir, 'Files/kubernetes/test-chart-0.1.0.tgz');
});

after(async () => {
  await api.stop();
});

function helm(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(HELM_STAND_IN, [...args, '--kubeconfig', kubeconfig, '-n', 'default'], (e, stdout, stderr) =>
      resolve({ code: e ? Number(e.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function replicas(): Promise<Record<string, number>> {
  const r = await kubectl(['get', 'deployments', '-n', 'default', '-o', 'json']);
  const items = (
    JSON.parse(r.stdout) as { items: { metadata: { name: string }; spec: { replicas: number } }[] }
  ).items;
  return Object.fromEntries(items.map((d) => [d.metadata.name, d.spec.replicas]));
}

test('the sample chart is installed, upgraded, rolled back and uninstalled as Helm 3 does', async () => {
  assert.match((await helm('version', '--short')).stdout, /^v3\./);
  const installed = await helm(
    'install',
    'r1',
    chart,
    '--set',
    'replicaCountVdu1=2',
    '--wait',
    '--timeout',
    '60s',
  );
  assert.equal(installed.code, 0, installed.stderr);
  assert.deepEqual(await replicas(), { 'vdu1-r1': 2, 'vdu2-r1': 1 });
  const manifest = await helm('get', 'manifest', 'r1');
  assert.match(manifest.stdout, /# Source: test-chart\/templates\/deployment_vdu1.yaml\n/);
  assert.match(manifest.stdout, /name: vdu1-r1\n/);

  const again = await helm('install', 'r1', chart);
  assert.equal(again.code, 1);
  assert.equal(again.stderr, 'Error: INSTALLATION FAILED: cannot re-use a name that is still in use\n');

  const upgraded = await helm(
    'upgrade',
    'r1',
    chart,
    '--reuse-values',
    '--set',
    'replicaCountVdu2=3',
    '--wait',
  );
  assert.equal(upgraded.code, 0, upgraded.stderr);
  assert.deepEqual(await replicas(), { 'vdu1-r1': 2, 'vdu2-r1': 3 });

  const rolled = await helm('rollback', 'r1', '1', '--wait');
  assert.equal(rolled.code, 0, rolled.stderr);
  assert.deepEqual(await replicas(), { 'vdu1-r1': 2, 'vdu2-r1': 1 });
  const history = JSON.parse((await helm('history', 'r1', '-o', 'json')).stdout) as {
    revision: number;
    status: string;
    chart: string;
  }[];
  assert.deepEqual(
    history.map((h) => [h.revision, h.status, h.chart]),
    [
      [1, 'superseded', 'test-chart-0.1.0'],
      [2, 'superseded', 'test-chart-0.1.0'],
      [3, 'deployed', 'test-chart-0.1.0'],
    ],
  );
  const secrets = await kubectl([
    'get',
    'secrets',
    '-n',
    'default',
    '-l',
    'owner=helm,name=r1',
    '-o',
    'name',
  ]);
  assert.deepEqual(secrets.stdout.trim().split('\n').sort(), [
    'secret/sh.helm.release.v1.r1.v1',
    'secret/sh.helm.release.v1.r1.v2',
    'secret/sh.helm.release.v1.r1.v3',
  ]);

  const gone = await helm('uninstall', 'r1', '--wait');
  assert.equal(gone.code, 0, gone.stderr);
  assert.equal(gone.stdout, 'release "r1" uninstalled\n');
  await eventually(replicas, (r) => Object.keys(r).length === 0, "the release's Deployments gone");
  const left = await kubectl([
    'get',
    'secrets,services,serviceaccounts',
    '-n',
    'default',
    '-l',
    'owner=helm',
    '-o',
    'name',
  ]);
  assert.equal(left.stdout.trim(), '');
});

test('missing releases fail with Helm messages and exit 1', async () => {
  const upgrade = await helm('upgrade', 'nope', chart);
  assert.deepEqual(
    [upgrade.code, upgrade.stderr],
    [1, 'Error: UPGRADE FAILED: "nope" has no deployed releases\n'],
  );
  for (const args of [
    ['rollback', 'nope', '1'],
    ['history', 'nope', '-o', 'json'],
    ['get', 'manifest', 'nope'],
  ]) {
    const r = await helm(...args);
    assert.deepEqual([r.code, r.stderr], [1, 'Error: release: not found\n'], args.join(' '));
  }
  const broken = await helm('install', 'bad', join(tempDir('bosun-helm-'), 'none.tgz'));
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /^Error: failed to load chart/);
});
