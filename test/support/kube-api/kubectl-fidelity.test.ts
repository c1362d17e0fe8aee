/**
 * The test API server checked against the real kubectl: each command must exit and print as it
 * does against a real cluster (apply --server-side, get, scale, rollout status, set image, delete,
 * apply conflicts between field managers, get --watch, a missing namespace), and the Tacker
 * sample packages' manifests apply and roll out.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { extractPackage } from '../extract.ts';
import { SAMPLES_DIR } from '../samples.ts';
import { tempDir } from '../temp.ts';
import { eventually } from './eventually.ts';
import { type KubeApi, startKubeApi } from './index.ts';
import { type Kubectl, kubectlFor } from './kubectl.ts';

let api: KubeApi;
let kubectl: Kubectl;

before(async () => {
  api = await startKubeApi({ podStartMs: 50, podStopMs: 30, imagePullBackOffMs: 100 });
  kubectl = kubectlFor(api);
});

after(async () => {
  assert.deepEqual(api.controllerErrors, []);
  await api.stop();
});

let n = 0;
/** A namespace of its own for each test, made with kubectl. */
async function namespace(): Promise<string> {
  const name = `fid-${++n}`;
  const r = await kubectl(['apply', '--server-side', '-f', '-'], {
    input: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
  });
  assert.equal(r.code, 0, r.stderr);
  return name;
}

const manifest = (replicas = 3, image = 'nginx:1.25') => `
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
data:
  greeting: hello
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: ${image}
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
    targetPort: 80
`;

async function ok(args: string[], input?: string): Promise<string> {
  const r = await kubectl(args, { input });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

const json = async (args: string[]) => JSON.parse(await ok([...args, '-o', 'json', '--show-managed-fields']));

test('apply --server-side, get -o json, rollout status, scale, set image, delete: as on a real cluster', async () => {
  const ns = await namespace();
  const applied = await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], manifest());
  assert.equal(
    applied,
    'configmap/web-config serverside-applied\ndeployment.apps/web serverside-applied\nservice/web serverside-applied\n',
  );

  const deploy = await json(['-n', ns, 'get', 'deployment', 'web']);
  assert.equal(deploy.kind, 'Deployment');
  assert.equal(deploy.apiVersion, 'apps/v1');
  assert.match(deploy.metadata.uid, /^[0-9a-f-]{36}$/);
  assert.match(deploy.metadata.resourceVersion, /^\d+$/);
  assert.equal(deploy.metadata.generation, 1);
  assert.deepEqual(deploy.spec.strategy, {
    type: 'RollingUpdate',
    rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
  });
  const apply = deploy.metadata.managedFields.find((m: { manager: string }) => m.manager === 'kubectl');
  assert.equal(apply.operation, 'Apply');
  assert.deepEqual(
    apply.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}']['f:image'],
    {},
  );
  const svc = await json(['-n', ns, 'get', 'service', 'web']);
  assert.match(svc.spec.clusterIP, /^10\.96\.\d+\.\d+$/);
  assert.equal(svc.spec.ports[0].protocol, 'TCP');

  const status = await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.match(status, /deployment "web" successfully rolled out\n$/);
  const pods = await json(['-n', ns, 'get', 'pods', '-l', 'app=web']);
  assert.equal(pods.items.length, 3);
  for (const p of pods.items) {
    assert.equal(p.status.phase, 'Running');
    assert.match(
      p.metadata.name,
      new RegExp(`^web-${p.metadata.labels['pod-template-hash']}-[bcdfghjklmnpqrstvwxz2456789]{5}$`),
    );
  }
  const rolled = await json(['-n', ns, 'get', 'deployment', 'web']);
  assert.equal(rolled.status.observedGeneration, 1);
  assert.equal(rolled.status.availableReplicas, 3);

  assert.equal(
    await ok(['-n', ns, 'scale', 'deployment/web', '--replicas=5']),
    'deployment.apps/web scaled\n',
  );
  const scaled = await json(['-n', ns, 'get', 'deployment', 'web']);
  assert.ok(Number(scaled.metadata.resourceVersion) > Number(rolled.metadata.resourceVersion));
  assert.equal(scaled.metadata.generation, 2);
  await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.equal((await json(['-n', ns, 'get', 'pods', '-l', 'app=web'])).items.length, 5);

  assert.equal(
    await ok(['-n', ns, 'set', 'image', 'deployment/web', 'nginx=nginx:1.26']),
    'deployment.apps/web image updated\n',
  );
  const rollout = await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.match(rollout, /deployment "web" successfully rolled out\n$/);
  const after = await json(['-n', ns, 'get', 'deployment', 'web']);
  assert.equal(after.metadata.generation, 3);
  assert.equal(after.metadata.annotations['deployment.kubernetes.io/revision'], '2');
  const sets = (await json(['-n', ns, 'get', 'replicasets'])).items;
  assert.equal(sets.length, 2);
  assert.deepEqual(sets.map((s: { spec: { replicas: number } }) => s.spec.replicas).sort(), [0, 5]);
  const images = (await json(['-n', ns, 'get', 'pods', '-l', 'app=web'])).items.map(
    (p: { spec: { containers: { image: string }[] } }) => p.spec.containers[0].image,
  );
  assert.deepEqual(images, Array(5).fill('nginx:1.26'));

  const deleted = await ok(['-n', ns, 'delete', '-f', '-'], manifest());
  assert.equal(
    deleted,
    'configmap "web-config" deleted\ndeployment.apps "web" deleted\nservice "web" deleted\n',
  );
  const gone = await kubectl(['-n', ns, 'get', 'deployment', 'web']);
  assert.equal(gone.code, 1);
  assert.equal(gone.stderr, 'Error from server (NotFound): deployments.apps "web" not found\n');
});

test('deleting a pod makes its ReplicaSet create a replacement with a new name and uid', async () => {
  const ns = await namespace();
  await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], manifest(1));
  await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  const [pod] = (await json(['-n', ns, 'get', 'pods', '-l', 'app=web'])).items;
  assert.equal(
    await ok(['-n', ns, 'delete', 'pod', pod.metadata.name]),
    `pod "${pod.metadata.name}" deleted\n`,
  );
  await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  const [replacement] = (await json(['-n', ns, 'get', 'pods', '-l', 'app=web'])).items;
  assert.notEqual(replacement.metadata.name, pod.metadata.name);
  assert.notEqual(replacement.metadata.uid, pod.metadata.uid);
  assert.equal(replacement.status.phase, 'Running');
});

test('delete --cascade=foreground returns once the dependents are gone', async () => {
  const ns = await namespace();
  await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], manifest(2));
  await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.equal(
    await ok(['-n', ns, 'delete', 'deployment', 'web', '--cascade=foreground']),
    'deployment.apps "web" deleted\n',
  );
  assert.equal((await json(['-n', ns, 'get', 'replicasets'])).items.length, 0);
  assert.equal((await json(['-n', ns, 'get', 'pods'])).items.length, 0);
});

test('an apply that changes a field another manager owns is refused with the conflict, and --force-conflicts takes it over', async () => {
  const ns = await namespace();
  await ok(['-n', ns, 'apply', '--server-side', '--field-manager=team-a', '-f', '-'], manifest(2));
  const refused = await kubectl(['-n', ns, 'apply', '--server-side', '--field-manager=team-b', '-f', '-'], {
    input: manifest(3),
  });
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /^error: Apply failed with 1 conflict: conflict with "team-a": \.spec\.replicas\nPlease review the fields above--they currently have other managers/,
  );
  assert.equal((await json(['-n', ns, 'get', 'deployment', 'web'])).spec.replicas, 2);

  // The same value is shared, not a conflict.
  await ok(['-n', ns, 'apply', '--server-side', '--field-manager=team-b', '-f', '-'], manifest(2));
  await ok(
    ['-n', ns, 'apply', '--server-side', '--field-manager=team-b', '--force-conflicts', '-f', '-'],
    manifest(3),
  );
  const d = await json(['-n', ns, 'get', 'deployment', 'web']);
  assert.equal(d.spec.replicas, 3);
  const owners = (field: string) =>
    d.metadata.managedFields
      .filter((m: { fieldsV1: { 'f:spec'?: Record<string, unknown> } }) => m.fieldsV1['f:spec']?.[field])
      .map((m: { manager: string }) => m.manager);
  assert.deepEqual(owners('f:replicas'), ['team-b']);
  assert.deepEqual(owners('f:selector').sort(), ['team-a', 'team-b']);

  const two = await kubectl(['-n', ns, 'apply', '--server-side', '--field-manager=team-a', '-f', '-'], {
    input: manifest(4, 'nginx:2'),
  });
  assert.equal(two.code, 1);
  assert.match(
    two.stderr,
    /^error: Apply failed with 2 conflicts: conflicts with "team-b":\n- \.spec\.replicas\n- \.spec\.template\.spec\.containers\[name="nginx"\]\.image\n/,
  );
});

test('get --watch prints the table and then each change as a row', async () => {
  const ns = await namespace();
  const watch = kubectl.start(['-n', ns, 'get', 'pods', '--watch']);
  try {
    // An empty list prints nothing under --watch: the stream being open is the sign it listens.
    await until(() => api.openWatches() === 1);
    await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], manifest(1));
    await until(() => /\n?web-\S+\s+1\/1\s+Running\s+0\s+\d+s\n/.test(watch.output()));
    const lines = watch.output().trim().split('\n');
    assert.match(lines.find((l) => l.startsWith('NAME')) ?? '', /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    assert.ok(
      lines.some((l) => /^web-\S+\s+0\/1\s+(Pending|ContainerCreating)\s/.test(l)),
      watch.output(),
    );
  } finally {
    watch.stop();
  }
});

test('an invalid manifest is refused with the real error text, and the rest of it is applied', async () => {
  const ns = await namespace();
  const bad = manifest(1).replace(
    '    metadata:\n      labels: {app: web}',
    '    metadata:\n      labels: {app: other}',
  );
  const r = await kubectl(['-n', ns, 'apply', '--server-side', '-f', '-'], { input: bad });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, 'configmap/web-config serverside-applied\nservice/web serverside-applied\n');
  assert.equal(
    r.stderr,
    'The Deployment "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`\n',
  );
  const none = await kubectl(['-n', ns, 'get', 'deployments']);
  assert.equal(none.stderr, `No resources found in ${ns} namespace.\n`);
});

test('a missing namespace: writes fail with NotFound naming it, lists are empty', async () => {
  const r = await kubectl(['-n', 'no-such-ns', 'apply', '--server-side', '-f', '-'], { input: manifest() });
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'Error from server (NotFound): namespaces "no-such-ns" not found\n'.repeat(3));
  const list = await kubectl(['-n', 'no-such-ns', 'get', 'pods']);
  assert.equal(list.code, 0);
  assert.equal(list.stderr, 'No resources found in no-such-ns namespace.\n');
});

test('server-side dry runs answer as the real thing would and store nothing; diff shows only what would change', async () => {
  const ns = await namespace();
  const dry = await ok(['-n', ns, 'apply', '--server-side', '--dry-run=server', '-f', '-'], manifest());
  assert.equal(
    dry,
    'configmap/web-config serverside-applied (server dry run)\ndeployment.apps/web serverside-applied (server dry run)\nservice/web serverside-applied (server dry run)\n',
  );
  const nothing = await kubectl(['-n', ns, 'get', 'all,configmaps']);
  assert.equal(nothing.stdout, '');
  assert.equal(nothing.stderr, `No resources found in ${ns} namespace.\n`);

  await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], manifest(1));
  const diff = await kubectl(['-n', ns, 'diff', '-f', '-'], { input: manifest(1, 'nginx:1.27') });
  assert.equal(diff.code, 1, diff.stderr);
  const changed = diff.stdout.split('\n').filter((l) => /^[-+] /.test(l));
  assert.deepEqual(changed, [
    '-  generation: 1',
    '+  generation: 2',
    '-      - image: nginx:1.25',
    '+      - image: nginx:1.27',
  ]);
  assert.match(diff.stdout, /apps\.v1\.Deployment\./);
  assert.doesNotMatch(diff.stdout, /ConfigMap|Service/);

  assert.equal(
    await ok(['-n', ns, 'delete', 'deployment', 'web', '--dry-run=server']),
    'deployment.apps "web" deleted (server dry run)\n',
  );
  assert.equal(
    (await json(['-n', ns, 'get', 'deployment', 'web'])).spec.template.spec.containers[0].image,
    'nginx:1.25',
  );
});

test('rollout undo goes back to the previous ReplicaSet, which becomes the newest revision', async () => {
  const ns = await namespace();
  await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], manifest(2));
  await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  const [first] = (await json(['-n', ns, 'get', 'replicasets'])).items;
  await ok(['-n', ns, 'set', 'image', 'deployment/web', 'nginx=nginx:1.26']);
  await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.equal(
    await ok(['-n', ns, 'rollout', 'undo', 'deployment/web']),
    'deployment.apps/web rolled back\n',
  );
  await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  const sets = (await json(['-n', ns, 'get', 'replicasets'])).items;
  assert.equal(sets.length, 2);
  const back = sets.find((s: { metadata: { name: string } }) => s.metadata.name === first.metadata.name);
  assert.equal(back.spec.replicas, 2);
  assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision'], '3');
  assert.match(
    await ok(['-n', ns, 'rollout', 'history', 'deployment/web']),
    /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n/,
  );
});

test('rollout status of a StatefulSet and a DaemonSet, and of a Deployment whose image cannot be pulled; a crashing container as get shows it', async () => {
  const ns = await namespace();
  const sets = `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: pg, image: "postgres:16"}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: a, image: "agent:1"}]
`;
  await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], sets);
  assert.match(
    await ok(['-n', ns, 'rollout', 'status', 'statefulset/db', '--timeout=60s']),
    /partitioned roll out complete: 3 new pods have been updated...\n$/,
  );
  assert.equal(
    await ok(['-n', ns, 'rollout', 'status', 'daemonset/agent', '--timeout=60s']),
    'daemon set "agent" successfully rolled out\n',
  );
  const names = (await json(['-n', ns, 'get', 'pods', '-l', 'app=db'])).items.map(
    (p: { metadata: { name: string } }) => p.metadata.name,
  );
  assert.deepEqual(names, ['db-0', 'db-1', 'db-2']);

  api.cluster.failures.imagePullError('nginx:missing');
  const broken = manifest(1, 'nginx:missing').replace(
    'replicas: 1',
    'replicas: 1\n  progressDeadlineSeconds: 1',
  );
  await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], broken);
  const r = await kubectl(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'error: deployment "web" exceeded its progress deadline\n');
  assert.match(
    await ok(['-n', ns, 'get', 'pods', '-l', 'app=web']),
    /\nweb-\S+\s+0\/1\s+(ErrImagePull|ImagePullBackOff)\s+0\s/,
  );

  api.cluster.failures.crashLoop('crasher:1');
  await ok(
    ['-n', ns, 'apply', '--server-side', '-f', '-'],
    manifest(1, 'crasher:1').replaceAll('web', 'crash'),
  );
  const crashing = await eventually(
    () => ok(['-n', ns, 'get', 'pods', '-l', 'app=crash']),
    (out) => /CrashLoopBackOff/.test(out),
    'CrashLoopBackOff',
  );
  assert.match(crashing, /\ncrash-\S+\s+0\/1\s+CrashLoopBackOff\s+\d+ \(\d+s ago\)\s+\d+s\n/);
});

test('a kubeconfig with the client certificate works as the token does', async () => {
  const byCert = kubectlFor(api, 'cert');
  const r = await byCert(['get', 'namespace', 'default', '-o', 'jsonpath={.status.phase}']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Active');
});

test('deleting a namespace waits until everything in it is gone', async () => {
  const ns = await namespace();
  await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], manifest(2));
  await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
  assert.equal(await ok(['delete', 'namespace', ns]), `namespace "${ns}" deleted\n`);
  const gone = await kubectl(['get', 'namespace', ns]);
  assert.equal(gone.stderr, `Error from server (NotFound): namespaces "${ns}" not found\n`);
});

test('a cordoned node takes no new pods (Pending, FailedScheduling) until it is uncordoned', async () => {
  const ns = await namespace();
  assert.equal(await ok(['cordon', 'node-1']), 'node/node-1 cordoned\n');
  try {
    assert.match(await ok(['get', 'nodes']), /\nnode-1\s+Ready,SchedulingDisabled\s/);
    await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], manifest(1));
    const events = await eventually(
      async () =>
        (await json(['-n', ns, 'get', 'events', '--field-selector', 'reason=FailedScheduling'])).items,
      (items: { message: string }[]) => items.length > 0,
      'FailedScheduling',
    );
    assert.equal(
      events[0].message,
      '0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    );
    assert.match(await ok(['-n', ns, 'get', 'pods']), /\nweb-\S+\s+0\/1\s+Pending\s/);
  } finally {
    assert.equal(await ok(['uncordon', 'node-1']), 'node/node-1 uncordoned\n');
  }
  await ok(['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
});

test('a pod whose nodeSelector no node matches is Pending with the scheduler’s words until a node is labelled', async () => {
  const ns = await namespace();
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'picky' },
    spec: { nodeSelector: { disktype: 'ssd' }, containers: [{ name: 'c', image: 'nginx:1.25' }] },
  };
  await ok(['-n', ns, 'apply', '--server-side', '-f', '-'], JSON.stringify(pod));
  const events = await eventually(
    async () =>
      (await json(['-n', ns, 'get', 'events', '--field-selector', 'reason=FailedScheduling'])).items,
    (items: { message: string }[]) => items.length > 0,
    'FailedScheduling',
  );
  assert.equal(
    events[0].message,
    "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
  );
  assert.match(await ok(['-n', ns, 'get', 'pods']), /\npicky\s+0\/1\s+Pending\s/);
  assert.equal(await ok(['label', 'node', 'node-1', 'disktype=ssd']), 'node/node-1 labeled\n');
  try {
    await ok(['-n', ns, 'wait', '--for=condition=Ready', 'pod/picky', '--timeout=60s']);
    assert.equal(await ok(['-n', ns, 'get', 'pod', 'picky', '-o', 'jsonpath={.spec.nodeName}']), 'node-1');
  } finally {
    await ok(['label', 'node', 'node-1', 'disktype-']);
  }
});

test('the Tacker sample packages apply server-side and roll out', async () => {
  const dir = tempDir('bosun-kube-samples-');
  const zips = readdirSync(SAMPLES_DIR).filter(
    (f) => /^sol_kubernetes_v2__.*\.zip$/.test(f) && !f.includes('helm'),
  );
  assert.ok(zips.length >= 3);
  for (const zip of zips) {
    const out = join(dir, zip);
    await extractPackage(join(SAMPLES_DIR, zip), out);
    const files = join(out, 'Files', 'kubernetes');
    const yamls = readdirSync(files).filter((f) => f.endsWith('.yaml'));
    // Manifests that name their namespace (default) go there; the others into a namespace per package.
    const ns = yamls.some((f) => /namespace:/.test(readFileSyncUtf8(join(files, f))))
      ? 'default'
      : await namespace();
    const r = await kubectl(['-n', ns, 'apply', '--server-side', '-f', files]);
    assert.equal(r.code, 0, `${zip}: ${r.stderr}`);
    assert.equal(r.stdout.trim().split('\n').length, yamls.length, r.stdout);
    for (const line of r.stdout.trim().split('\n')) assert.match(line, / serverside-applied$/);
    const deployments = (await json(['-n', ns, 'get', 'deployments'])).items;
    for (const d of deployments)
      await ok(['-n', ns, 'rollout', 'status', `deployment/${d.metadata.name}`, '--timeout=60s']);
  }
});

const readFileSyncUtf8 = (f: string) => readFileSync(f, 'utf8');

const until = (check: () => boolean) => eventually(check, Boolean, 'kubectl output');
