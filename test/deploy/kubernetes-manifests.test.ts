/**
 * deploy/kubernetes/ against the test API server with the real kubectl: the kustomization is
 * accepted by a server-side dry run (which stores nothing), manifests with a misspelt field, a
 * missing required field or an invalid value are refused as a real API server refuses them, every
 * BOSUN_* variable the manifests set is a configuration variable of Bosun, the grace periods cover
 * the shutdown timeout, and the probes' paths answer on real `bosun serve` processes of each role.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { envLeaves } from '../../src/config/env.ts';
import { ConfigSchema } from '../../src/config/schema.ts';
import { type KubeApi, startKubeApi } from '../support/kube-api/index.ts';
import { type Kubectl, kubectlFor } from '../support/kube-api/kubectl.ts';
import { newServerEnv, type Role, type Served, serveProcess, stop } from '../support/processes.ts';
import { bosunVariables, byKind, KUBERNETES_DIR, type Manifest, manifests, named } from './manifests.ts';

const all = manifests();

describe('deploy/kubernetes against the API server', () => {
  let api: KubeApi;
  let kubectl: Kubectl;

  before(async () => {
    api = await startKubeApi();
    kubectl = kubectlFor(api);
    // A server-side dry run of namespaced objects needs their namespace to exist, as on a real cluster.
    const ns = await kubectl(['apply', '-f', join(KUBERNETES_DIR, 'namespace.yaml')]);
    assert.equal(ns.code, 0, ns.stderr);
  });

  after(async () => {
    await api?.stop();
  });

  test('the kustomization is accepted by a server-side dry run, and nothing is stored', async () => {
    const r = await kubectl(['apply', '--dry-run=server', '-k', KUBERNETES_DIR]);
    assert.equal(r.code, 0, r.stderr);
    for (const m of all) {
      const resource = `${m.kind.toLowerCase()}(\\.[a-z.]+)?/${m.metadata.name}`;
      assert.match(r.stdout, new RegExp(`^${resource} (created|unchanged) \\(server dry run\\)$`, 'm'));
    }
    const get = await kubectl([
      'get',
      'deployments,jobs,poddisruptionbudgets,services,secrets',
      '-n',
      'bosun',
    ]);
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stderr, /No resources found in bosun namespace/);
  });

  test('a misspelt field is refused under strict field validation, kubectl’s default', async () => {
    const deployment = structuredClone(named(all, 'Deployment', 'bosun-api'));
    const probe = deployment.spec.template.spec.containers[0].readinessProbe;
    probe.httpGet.paht = probe.httpGet.path;
    delete probe.httpGet.path;
    const r = await kubectl(['apply', '--dry-run=server', '-f', '-'], { input: stringify(deployment) });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /Error from server \(BadRequest\): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec\.template\.spec\.containers\[0\]\.readinessProbe\.httpGet\.paht"/,
    );
    // --validate=false sends fieldValidation=Ignore: the same manifest then passes.
    const lax = await kubectl(['apply', '--dry-run=server', '--validate=false', '-f', '-'], {
      input: stringify(deployment),
    });
    assert.equal(lax.code, 0, lax.stderr);
  });

  test('a Deployment whose container has no image is invalid', async () => {
    const deployment = structuredClone(named(all, 'Deployment', 'bosun-worker'));
    delete deployment.spec.template.spec.containers[0].image;
    const r = await kubectl(['apply', '--dry-run=server', '-f', '-'], { input: stringify(deployment) });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /The Deployment "bosun-worker" is invalid: spec\.template\.spec\.containers\[0\]\.image: Required value/,
    );
  });

  test('the migration Job must not restart forever, and the budgets take one of minAvailable and maxUnavailable', async () => {
    const job = structuredClone(named(all, 'Job', 'bosun-migrate'));
    delete job.spec.template.spec.restartPolicy;
    const r = await kubectl(['apply', '--dry-run=server', '-f', '-'], { input: stringify(job) });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /The Job "bosun-migrate" is invalid: spec\.template\.spec\.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"/,
    );
    const pdb = structuredClone(named(all, 'PodDisruptionBudget', 'bosun-api'));
    pdb.spec.maxUnavailable = 1;
    const both = await kubectl(['apply', '--dry-run=server', '-f', '-'], { input: stringify(pdb) });
    assert.equal(both.code, 1);
    assert.match(both.stderr, /minAvailable and maxUnavailable cannot be both set/);
  });
});

test('every BOSUN_* variable the manifests set is a configuration variable', () => {
  const known = new Set(envLeaves(ConfigSchema).map((l) => l.variable));
  const set = bosunVariables(all);
  assert.ok(set.length > 10, `only ${set.length} variables found: the reading of the manifests broke`);
  assert.deepEqual(
    set.filter((v) => !known.has(v)),
    [],
  );
  // The secret key and the database URL come from the Secret, never from the ConfigMap.
  const secret = named(all, 'Secret', 'bosun-secrets');
  for (const v of ['BOSUN_SECURITY_ENCRYPTION_KEY', 'BOSUN_DATABASE_URL']) {
    assert.ok(v in secret.stringData, `${v} is not in the Secret`);
    assert.ok(!(v in named(all, 'ConfigMap', 'bosun-config').data), `${v} is in the ConfigMap`);
  }
});

test('each Deployment’s grace period covers its preStop sleep and the shutdown timeout', () => {
  const shutdownS =
    Number(named(all, 'ConfigMap', 'bosun-config').data.BOSUN_SERVER_SHUTDOWN_TIMEOUT_MS) / 1000;
  const deployments = byKind(all, 'Deployment');
  assert.deepEqual(
    deployments.map((d) => d.metadata.name),
    ['bosun-api', 'bosun-worker'],
  );
  for (const d of deployments) {
    const pod = d.spec.template.spec;
    const [sleep, seconds] = pod.containers[0].lifecycle.preStop.exec.command;
    assert.equal(sleep, 'sleep');
    const needed = Number(seconds) + shutdownS;
    assert.ok(
      pod.terminationGracePeriodSeconds > needed,
      `${d.metadata.name}: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} <= preStop ${seconds} s + shutdown ${shutdownS} s`,
    );
    assert.equal(d.spec.replicas, 2);
  }
});

describe('the probes answer on real processes of each role', () => {
  const served: Served[] = [];
  after(async () => {
    await Promise.all(served.map((s) => stop(s.child)));
  });

  for (const name of ['bosun-api', 'bosun-worker']) {
    test(name, async () => {
      const container: Manifest = named(all, 'Deployment', name).spec.template.spec.containers[0];
      const [command, flag, role] = container.args;
      assert.deepEqual([command, flag], ['serve', '--role']);
      const env = await newServerEnv('postgres', 'bosun-deploy-');
      const s = await serveProcess(env, role as Role);
      served.push(s);
      for (const probe of [container.readinessProbe, container.livenessProbe]) {
        assert.equal(probe.httpGet.port, container.ports[0].name);
        const res = await fetch(`${s.url}${probe.httpGet.path}`);
        assert.equal(res.status, 200, `${role} ${probe.httpGet.path}: ${await res.text()}`);
      }
    });
  }
});
