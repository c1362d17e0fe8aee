/**
 * The test API server on the wire, for what kubectl does not show: authentication, Status bodies
 * exactly as the real server writes them, resourceVersion/uid/generateName/generation, selectors,
 * watches from a resourceVersion (and 410 once it is compacted), the subresources, each patch
 * type, graceful and propagated deletion, and injected failures.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createOpensslCa } from '../openssl-ca.ts';
import { eventually } from './eventually.ts';
import { type KubeApi, startKubeApi } from './index.ts';
import { kubeRequest, kubeWatch } from './raw.ts';
import type { Obj } from './store.ts';

let api: KubeApi;

before(async () => {
  api = await startKubeApi({
    podStartMs: 30,
    podStopMs: 30,
    imagePullBackOffMs: 60,
    nodes: ['node-1', 'node-2'],
  });
});

after(async () => {
  assert.deepEqual(api.controllerErrors, []);
  await api.stop();
});

const get = (path: string) => kubeRequest(api, 'GET', path);
const post = (path: string, body: unknown) => kubeRequest(api, 'POST', path, { body });
const patch = (path: string, body: unknown, contentType: string) =>
  kubeRequest(api, 'PATCH', path, { body, contentType });
const del = (path: string, body?: unknown) => kubeRequest(api, 'DELETE', path, { body });

let n = 0;
async function namespace(): Promise<string> {
  const name = `api-${++n}`;
  assert.equal((await post('/api/v1/namespaces', { metadata: { name } })).status, 201);
  return name;
}

const deployment = (name: string, extra: Obj = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
    },
    ...extra,
  },
});

const pods = async (ns: string, selector: string) =>
  (await get(`/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`)).body
    .items as Obj[];

const ready = (p: Obj) =>
  (p.status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True');

test('only a client with the bearer token or a certificate from the cluster CA is let in', async () => {
  const anonymous = await kubeRequest(api, 'GET', '/api/v1/namespaces', { auth: 'none' });
  assert.equal(anonymous.status, 401);
  assert.deepEqual(anonymous.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Unauthorized',
    reason: 'Unauthorized',
    code: 401,
  });
  assert.equal((await kubeRequest(api, 'GET', '/api/v1/namespaces', { auth: 'cert' })).status, 200);
  const rogue = createOpensslCa('bosun-kube-rogue-', 'ec');
  try {
    rogue.ca('rogue', { days: 1, keyUsage: 'critical,keyCertSign,cRLSign' });
    const cert = rogue.issue('intruder', {
      ca: 'rogue',
      days: 1,
      extensions: 'extendedKeyUsage=clientAuth\n',
    });
    const foreign = await kubeRequest(api, 'GET', '/api/v1/namespaces', { auth: 'cert', cert });
    assert.equal(foreign.status, 401);
  } finally {
    rogue.cleanup();
  }
  const wrongToken = await kubeRequest(api, 'GET', '/api/v1/namespaces', { token: `${api.token}x` });
  assert.equal(wrongToken.status, 401);
  const list = await kubeRequest(api, 'GET', '/api/v1/namespaces', { auth: 'token' });
  assert.deepEqual(
    list.body.items.map((i: Obj) => i.metadata.name).filter((x: string) => !x.startsWith('api-')),
    ['default', 'kube-node-lease', 'kube-public', 'kube-system'],
  );
});

test('errors are Status objects shaped as the real server shapes them', async () => {
  const ns = await namespace();
  assert.deepEqual((await get(`/apis/apps/v1/namespaces/${ns}/deployments/nope`)).body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'deployments.apps "nope" not found',
    reason: 'NotFound',
    details: { name: 'nope', group: 'apps', kind: 'deployments' },
    code: 404,
  });
  assert.equal((await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'c' } })).status, 201);
  assert.deepEqual((await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'c' } })).body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'configmaps "c" already exists',
    reason: 'AlreadyExists',
    details: { name: 'c', kind: 'configmaps' },
    code: 409,
  });
  const missingNs = await post('/api/v1/namespaces/ghost/configmaps', { metadata: { name: 'c' } });
  assert.equal(missingNs.status, 404);
  assert.deepEqual(missingNs.body.details, { name: 'ghost', kind: 'namespaces' });
  assert.equal(missingNs.body.message, 'namespaces "ghost" not found');

  const bad = deployment('bad');
  bad.spec.template.metadata.labels = { app: 'other' };
  const invalid = await post(`/apis/apps/v1/namespaces/${ns}/deployments`, bad);
  assert.equal(invalid.status, 422);
  assert.equal(invalid.body.reason, 'Invalid');
  assert.equal(
    invalid.body.message,
    'Deployment.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
  );
  assert.deepEqual(invalid.body.details.causes, [
    {
      reason: 'FieldValueInvalid',
      message: 'Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
      field: 'spec.template.metadata.labels',
    },
  ]);
  const name = await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'Bad_Name' } });
  assert.equal(name.status, 422);
  assert.match(
    name.body.message,
    /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
  );

  const cm = (await get(`/api/v1/namespaces/${ns}/configmaps/c`)).body;
  assert.equal(
    (
      await kubeRequest(api, 'PUT', `/api/v1/namespaces/${ns}/configmaps/c`, {
        body: { ...cm, data: { a: '1' } },
      })
    ).status,
    200,
  );
  const stale = await kubeRequest(api, 'PUT', `/api/v1/namespaces/${ns}/configmaps/c`, {
    body: { ...cm, data: { a: '2' } },
  });
  assert.equal(stale.status, 409);
  assert.equal(
    stale.body.message,
    'Operation cannot be fulfilled on configmaps "c": the object has been modified; please apply your changes to the latest version and try again',
  );
  assert.equal(
    (await get('/apis/apps/v1/namespaces/x/widgets')).body.message,
    'the server could not find the requested resource',
  );
});

test("a body over the real server's 3 MiB limit is refused with 413 and nothing is stored", async () => {
  const ns = await namespace();
  const big = await post(`/api/v1/namespaces/${ns}/configmaps`, {
    metadata: { name: 'big' },
    data: { a: 'x'.repeat(3 * 1024 * 1024) },
  });
  assert.equal(big.status, 413);
  assert.equal(big.body.reason, 'RequestEntityTooLarge');
  assert.equal(big.body.message, 'Request entity too large: limit is 3145728');
  assert.equal((await get(`/api/v1/namespaces/${ns}/configmaps/big`)).status, 404);
});

test('objects get a uid, a creationTimestamp, a global increasing resourceVersion, generated names and generations', async () => {
  const ns = await namespace();
  const a = (await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { generateName: 'cfg-' } })).body;
  const b = (
    await post(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { generateName: 'cfg-' },
      stringData: { k: 'v' },
    })
  ).body;
  assert.match(a.metadata.name, /^cfg-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.notEqual(a.metadata.uid, b.metadata.uid);
  assert.match(a.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.ok(Number(b.metadata.resourceVersion) > Number(a.metadata.resourceVersion));
  assert.deepEqual(b.data, { k: Buffer.from('v').toString('base64') });
  assert.equal(b.stringData, undefined);

  const d = (await post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('gen'))).body;
  assert.equal(d.metadata.generation, 1);
  const labelled = (
    await patch(
      `/apis/apps/v1/namespaces/${ns}/deployments/gen`,
      { metadata: { labels: { x: 'y' } } },
      'application/merge-patch+json',
    )
  ).body;
  assert.equal(labelled.metadata.generation, 1);
  const scaled = (
    await patch(
      `/apis/apps/v1/namespaces/${ns}/deployments/gen`,
      { spec: { replicas: 3 } },
      'application/merge-patch+json',
    )
  ).body;
  assert.equal(scaled.metadata.generation, 2);
  const done = await eventually(
    () => get(`/apis/apps/v1/namespaces/${ns}/deployments/gen`),
    (r) => r.body.status?.observedGeneration === 2 && r.body.status?.readyReplicas === 3,
    'the rollout',
  );
  // The status subresource changes status only; the resource itself keeps the controller's status.
  const viaStatus = await kubeRequest(api, 'PUT', `/apis/apps/v1/namespaces/${ns}/deployments/gen/status`, {
    body: {
      ...done.body,
      spec: { ...done.body.spec, replicas: 9 },
      status: { ...done.body.status, replicas: 42 },
    },
  });
  assert.equal(viaStatus.body.spec.replicas, 3);
  assert.equal(viaStatus.body.status.replicas, 42);
  const viaSpec = await patch(
    `/apis/apps/v1/namespaces/${ns}/deployments/gen`,
    { status: { replicas: 7 } },
    'application/merge-patch+json',
  );
  assert.notEqual(viaSpec.body.status.replicas, 7);
});

test('lists filter by label and field selectors and page with limit and continue', async () => {
  const ns = await namespace();
  for (const [name, labels] of [
    ['a', { tier: 'web', env: 'prod' }],
    ['b', { tier: 'db', env: 'prod' }],
    ['c', { tier: 'web' }],
  ] as const) {
    await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels } });
  }
  const names = async (q: string) =>
    (await get(`/api/v1/namespaces/${ns}/configmaps?${q}`)).body.items.map((i: Obj) => i.metadata.name);
  assert.deepEqual(await names('labelSelector=tier%3Dweb'), ['a', 'c']);
  assert.deepEqual(await names('labelSelector=tier%3Dweb,env'), ['a']);
  assert.deepEqual(await names('labelSelector=tier%20in%20(db,cache)'), ['b']);
  assert.deepEqual(await names('labelSelector=!env'), ['c']);
  assert.deepEqual(await names('labelSelector=tier!%3Dweb'), ['b']);
  assert.deepEqual(await names('fieldSelector=metadata.name%3Dc'), ['c']);
  const page = (await get(`/api/v1/namespaces/${ns}/configmaps?limit=2`)).body;
  assert.deepEqual(
    page.items.map((i: Obj) => i.metadata.name),
    ['a', 'b'],
  );
  assert.equal(page.metadata.remainingItemCount, 1);
  assert.deepEqual(await names(`limit=2&continue=${encodeURIComponent(page.metadata.continue)}`), ['c']);
  assert.equal((await get(`/api/v1/namespaces/${ns}/configmaps?labelSelector=tier%20in`)).status, 400);
});

test('a watch from a resourceVersion sends what changed after it, and 410 Expired once that is compacted', async () => {
  const ns = await namespace();
  const created = (
    await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'w' }, data: { a: '1' } })
  ).body;
  await patch(`/api/v1/namespaces/${ns}/configmaps/w`, { data: { a: '2' } }, 'application/merge-patch+json');
  const watch = await kubeWatch(
    api,
    `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${created.metadata.resourceVersion}`,
  );
  try {
    const modified = await watch.next();
    assert.equal(modified.type, 'MODIFIED');
    assert.equal(modified.object.data.a, '2');
    await del(`/api/v1/namespaces/${ns}/configmaps/w`);
    const deleted = await watch.next();
    assert.equal(deleted.type, 'DELETED');
    assert.ok(
      Number(deleted.object.metadata.resourceVersion) > Number(modified.object.metadata.resourceVersion),
    );
    await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'w2' } });
    assert.equal((await watch.next()).type, 'ADDED');
  } finally {
    watch.close();
  }
  api.cluster.store.compact();
  const expired = await kubeWatch(
    api,
    `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${created.metadata.resourceVersion}`,
  );
  try {
    const e = await expired.next();
    assert.equal(e.type, 'ERROR');
    assert.equal(e.object.code, 410);
    assert.equal(e.object.reason, 'Expired');
    assert.match(e.object.message, /^too old resource version: \d+ \(\d+\)$/);
  } finally {
    expired.close();
  }
});

test('the scale subresource reads and writes replicas as an autoscaling/v1 Scale', async () => {
  const ns = await namespace();
  await post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('s'));
  const scale = (await get(`/apis/apps/v1/namespaces/${ns}/deployments/s/scale`)).body;
  assert.equal(scale.kind, 'Scale');
  assert.equal(scale.apiVersion, 'autoscaling/v1');
  assert.equal(scale.spec.replicas, 2);
  const out = await patch(
    `/apis/apps/v1/namespaces/${ns}/deployments/s/scale`,
    { spec: { replicas: 4 } },
    'application/merge-patch+json',
  );
  assert.equal(out.body.spec.replicas, 4);
  await eventually(
    () => pods(ns, 'app=s'),
    (p) => p.length === 4 && p.every(ready),
    'four ready pods',
  );
  const negative = await patch(
    `/apis/apps/v1/namespaces/${ns}/deployments/s/scale`,
    { spec: { replicas: -1 } },
    'application/merge-patch+json',
  );
  assert.equal(negative.status, 422);
});

test('a ReplicaSet scaled down deletes the pods of lowest pod-deletion-cost first, then the newest', async () => {
  const ns = await namespace();
  await post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('c', { replicas: 3 }));
  const list = async () =>
    eventually(
      () => pods(ns, 'app=c'),
      (p) => p.every((x) => !x.metadata.deletionTimestamp && ready(x)),
      'ready pods',
    );
  const annotate = async (pod: Obj, cost: string) => {
    const r = await patch(
      `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}`,
      { metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': cost } } },
      'application/merge-patch+json',
    );
    assert.equal(r.status, 200);
  };
  const scale = async (replicas: number) => {
    await patch(
      `/apis/apps/v1/namespaces/${ns}/deployments/c/scale`,
      { spec: { replicas } },
      'application/merge-patch+json',
    );
    return eventually(list, (p) => p.length === replicas, `${replicas} pods`);
  };
  /** Whom a scale down would delete without costs: the newest, the first listed among equals. */
  const newest = (p: Obj[]) =>
    [...p].sort((a, b) => b.metadata.creationTimestamp.localeCompare(a.metadata.creationTimestamp))[0];
  const three = await eventually(list, (p) => p.length === 3, 'three ready pods');
  // The cheapest goes, though it is not the one the age alone would pick.
  const cheapest = three.find((p) => p !== newest(three)) as Obj;
  await annotate(cheapest, '-100');
  const two = await scale(2);
  assert.ok(!two.some((p) => p.metadata.name === cheapest.metadata.name), 'the cheapest went');
  // The dearest stays, though the age alone would delete it.
  const dearest = newest(two);
  await annotate(dearest, '100');
  const [last] = await scale(1);
  assert.equal(last.metadata.name, dearest.metadata.name, 'the dearest stays');
});

test('strategic merge patch merges containers by name; JSON patch and merge patch as their RFCs say', async () => {
  const ns = await namespace();
  const d = deployment('p');
  d.spec.template.spec.containers.push({ name: 'side', image: 'busybox:1' });
  await post(`/apis/apps/v1/namespaces/${ns}/deployments`, d);
  const smp = await patch(
    `/apis/apps/v1/namespaces/${ns}/deployments/p`,
    { spec: { template: { spec: { containers: [{ name: 'side', image: 'busybox:2' }] } } } },
    'application/strategic-merge-patch+json',
  );
  assert.deepEqual(
    smp.body.spec.template.spec.containers.map((c: Obj) => `${c.name}=${c.image}`),
    ['main=nginx:1.25', 'side=busybox:2'],
  );
  const removed = await patch(
    `/apis/apps/v1/namespaces/${ns}/deployments/p`,
    { spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } } },
    'application/strategic-merge-patch+json',
  );
  assert.deepEqual(
    removed.body.spec.template.spec.containers.map((c: Obj) => c.name),
    ['main'],
  );
  const merge = await patch(
    `/apis/apps/v1/namespaces/${ns}/deployments/p`,
    { spec: { template: { spec: { containers: [{ name: 'only', image: 'x:1' }] } } } },
    'application/merge-patch+json',
  );
  assert.deepEqual(
    merge.body.spec.template.spec.containers.map((c: Obj) => c.name),
    ['only'],
  );
  const json = await patch(
    `/apis/apps/v1/namespaces/${ns}/deployments/p`,
    [
      { op: 'replace', path: '/spec/replicas', value: 1 },
      { op: 'add', path: '/metadata/labels', value: { k: 'v' } },
    ],
    'application/json-patch+json',
  );
  assert.equal(json.body.spec.replicas, 1);
  assert.deepEqual(json.body.metadata.labels, { k: 'v' });
  const failed = await patch(
    `/apis/apps/v1/namespaces/${ns}/deployments/p`,
    [{ op: 'test', path: '/spec/replicas', value: 5 }],
    'application/json-patch+json',
  );
  assert.equal(failed.status, 422);
  const unknown = await kubeRequest(api, 'PATCH', `/apis/apps/v1/namespaces/${ns}/deployments/p`, {
    body: {},
    contentType: 'text/plain',
  });
  assert.equal(unknown.status, 415);
});

test('server-side apply removes the fields its manager stops applying, and needs a field manager', async () => {
  const ns = await namespace();
  const path = `/api/v1/namespaces/${ns}/configmaps/sa?fieldManager=me`;
  const yaml = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sa\ndata:\n${data}`;
  const first = await patch(path, yaml('  a: "1"\n  b: "2"\n'), 'application/apply-patch+yaml');
  assert.equal(first.status, 201);
  await patch(
    `/api/v1/namespaces/${ns}/configmaps/sa?fieldManager=other`,
    { data: { c: '3' } },
    'application/merge-patch+json',
  );
  const second = await patch(path, yaml('  a: "1"\n'), 'application/apply-patch+yaml');
  assert.equal(second.status, 200);
  assert.deepEqual(second.body.data, { a: '1', c: '3' });
  const entries = second.body.metadata.managedFields.map((m: Obj) => `${m.manager}/${m.operation}`);
  assert.deepEqual(entries, ['me/Apply', 'other/Update']);
  const noManager = await patch(
    `/api/v1/namespaces/${ns}/configmaps/sa`,
    yaml('  a: "1"\n'),
    'application/apply-patch+yaml',
  );
  assert.equal(noManager.status, 422);
  assert.equal(
    noManager.body.message,
    'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
  );
});

test('a deleted pod is Terminating for its grace period, then gone; gracePeriodSeconds=0 removes it at once', async () => {
  const ns = await namespace();
  const spec = { containers: [{ name: 'c', image: 'nginx:1.25' }] };
  await post(`/api/v1/namespaces/${ns}/pods`, { metadata: { name: 'p1', labels: { run: 'p' } }, spec });
  await post(`/api/v1/namespaces/${ns}/pods`, { metadata: { name: 'p2', labels: { run: 'p' } }, spec });
  await eventually(
    () => pods(ns, 'run=p'),
    (p) => p.length === 2 && p.every(ready),
    'two running pods',
  );
  const watch = await kubeWatch(
    api,
    `/api/v1/namespaces/${ns}/pods?watch=1&fieldSelector=metadata.name%3Dp1&resourceVersion=${api.cluster.store.resourceVersion}`,
  );
  try {
    const deleting = await del(`/api/v1/namespaces/${ns}/pods/p1`);
    assert.equal(deleting.status, 200);
    assert.equal(deleting.body.kind, 'Pod');
    assert.ok(deleting.body.metadata.deletionTimestamp);
    assert.equal(deleting.body.metadata.deletionGracePeriodSeconds, 30);
    const types: string[] = [];
    for (;;) {
      const e = await watch.next();
      types.push(e.type);
      if (e.type === 'DELETED') break;
    }
    assert.equal(types[0], 'MODIFIED');
    assert.equal(types.at(-1), 'DELETED');
  } finally {
    watch.close();
  }
  const forced = await del(`/api/v1/namespaces/${ns}/pods/p2?gracePeriodSeconds=0`);
  assert.equal(forced.status, 200);
  assert.equal((await get(`/api/v1/namespaces/${ns}/pods/p2`)).status, 404);
});

test('Orphan deletion leaves the dependents without their owner; deleting a namespace empties it first', async () => {
  const ns = await namespace();
  await post(`/apis/apps/v1/namespaces/${ns}/replicasets`, {
    metadata: { name: 'rs' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
    },
  });
  await eventually(
    () => pods(ns, 'a=b'),
    (p) => p.length === 2,
    'two pods',
  );
  await del(`/apis/apps/v1/namespaces/${ns}/replicasets/rs`, { propagationPolicy: 'Orphan' });
  await eventually(
    () => get(`/apis/apps/v1/namespaces/${ns}/replicasets/rs`),
    (r) => r.status === 404,
    'the ReplicaSet gone',
  );
  const orphans = await pods(ns, 'a=b');
  assert.equal(orphans.length, 2);
  for (const p of orphans) assert.equal(p.metadata.ownerReferences, undefined);

  const terminating = await del(`/api/v1/namespaces/${ns}`);
  assert.equal(terminating.body.status.phase, 'Terminating');
  const refused = await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'late' } });
  assert.equal(refused.status, 403);
  assert.equal(
    refused.body.message,
    `configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
  );
  await eventually(
    () => get(`/api/v1/namespaces/${ns}`),
    (r) => r.status === 404,
    'the namespace gone',
  );
  assert.deepEqual(await pods(ns, 'a=b'), []);
});

test('an image that cannot be pulled leaves the pod waiting in ErrImagePull, then ImagePullBackOff, with Warning events', async () => {
  const ns = await namespace();
  api.cluster.failures.imagePullError('nginx:no-such-tag');
  await post(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'bad' },
    spec: { containers: [{ name: 'c', image: 'nginx:no-such-tag' }] },
  });
  const waiting = (r: Obj, reason: string) =>
    r.body.status?.containerStatuses?.[0]?.state?.waiting?.reason === reason;
  await eventually(
    () => get(`/api/v1/namespaces/${ns}/pods/bad`),
    (r) => waiting(r, 'ErrImagePull'),
    'ErrImagePull',
  );
  const backOff = await eventually(
    () => get(`/api/v1/namespaces/${ns}/pods/bad`),
    (r) => waiting(r, 'ImagePullBackOff'),
    'ImagePullBackOff',
  );
  assert.equal(backOff.body.status.phase, 'Pending');
  const events = (
    await get(`/api/v1/namespaces/${ns}/events?fieldSelector=involvedObject.name%3Dbad,type%3DWarning`)
  ).body.items;
  assert.ok(
    events.some(
      (e: Obj) => e.reason === 'Failed' && e.message.startsWith('Failed to pull image "nginx:no-such-tag"'),
    ),
    JSON.stringify(events),
  );
  assert.ok(events.some((e: Obj) => e.message === 'Error: ImagePullBackOff'));
});

test('a container that keeps exiting leaves its pod Running but not ready, in CrashLoopBackOff with growing restarts', async () => {
  const ns = await namespace();
  api.cluster.failures.crashLoop('crasher:1');
  await post(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'crash' },
    spec: { containers: [{ name: 'c', image: 'crasher:1' }] },
  });
  const path = `/api/v1/namespaces/${ns}/pods/crash`;
  const first = await eventually(
    () => get(path),
    (r) => r.body.status?.phase === 'Running',
    'running',
  );
  const c = first.body.status.containerStatuses[0];
  assert.equal(c.state.waiting.reason, 'CrashLoopBackOff');
  assert.equal(c.lastState.terminated.reason, 'Error');
  assert.equal(c.lastState.terminated.exitCode, 1);
  assert.equal(ready(first.body), false);
  await eventually(
    () => get(path),
    (r) => r.body.status.containerStatuses[0].restartCount >= 2,
    'a second restart',
  );
  const events = (await get(`/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DBackOff`)).body.items;
  assert.equal(events.length, 1);
  assert.ok(events[0].count >= 2);
  assert.equal(
    events[0].message,
    `Back-off restarting failed container c in pod crash_${ns}(${first.body.metadata.uid})`,
  );
});

test('a running pod whose containers start failing goes into CrashLoopBackOff', async () => {
  const ns = await namespace();
  await post(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'fine' },
    spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
  });
  const fine = `/api/v1/namespaces/${ns}/pods/fine`;
  await eventually(
    () => get(fine),
    (r) => ready(r.body),
    'fine ready',
  );
  api.cluster.failures.breakPod(ns, 'fine');
  try {
    const broken = await eventually(
      () => get(fine),
      (r) => !ready(r.body),
      'fine broken',
    );
    assert.equal(broken.body.status.phase, 'Running');
    const c = broken.body.status.containerStatuses[0];
    assert.equal(c.state.waiting.reason, 'CrashLoopBackOff');
    assert.equal(c.lastState.terminated.reason, 'Error');
    assert.ok(c.restartCount >= 1);
    const backOff = (await get(`/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DBackOff`)).body.items;
    assert.equal(backOff[0].involvedObject.name, 'fine');
  } finally {
    api.cluster.failures.clear();
  }
});

test('an exceeded quota refuses a pod with 403 as the quota admission does, and its ReplicaSet reports FailedCreate', async () => {
  const ns = await namespace();
  api.cluster.failures.quota({ name: 'pods-max', namespace: ns, resource: 'pods', hard: 1 });
  const spec = { containers: [{ name: 'c', image: 'nginx:1' }] };
  assert.equal(
    (await post(`/api/v1/namespaces/${ns}/pods`, { metadata: { name: 'one' }, spec })).status,
    201,
  );
  const refused = await post(`/api/v1/namespaces/${ns}/pods`, { metadata: { name: 'two' }, spec });
  assert.deepEqual(refused.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message:
      'pods "two" is forbidden: exceeded quota: pods-max, requested: pods=1, used: pods=1, limited: pods=1',
    reason: 'Forbidden',
    details: { name: 'two', kind: 'pods' },
    code: 403,
  });
  await post(`/apis/apps/v1/namespaces/${ns}/replicasets`, {
    metadata: { name: 'rs' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec },
    },
  });
  const rs = await eventually(
    () => get(`/apis/apps/v1/namespaces/${ns}/replicasets/rs`),
    (r) => !!r.body.status?.conditions,
    'ReplicaFailure',
  );
  assert.equal(rs.body.status.conditions[0].type, 'ReplicaFailure');
  assert.equal(rs.body.status.conditions[0].reason, 'FailedCreate');
  const events = (await get(`/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DFailedCreate`)).body
    .items;
  assert.match(
    events[0].message,
    /^Error creating: pods "rs-[a-z0-9]{5}" is forbidden: exceeded quota: pods-max/,
  );
});

test('a pod that fits on no node stays Pending with a FailedScheduling event', async () => {
  const ns = await namespace();
  api.cluster.failures.unschedulablePods('size=huge', ns);
  await post(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'big', labels: { size: 'huge' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
  });
  const pod = await eventually(
    () => get(`/api/v1/namespaces/${ns}/pods/big`),
    (r) => !!r.body.status?.conditions,
    'PodScheduled',
  );
  assert.equal(pod.body.status.phase, 'Pending');
  assert.deepEqual(
    {
      type: pod.body.status.conditions[0].type,
      status: pod.body.status.conditions[0].status,
      reason: pod.body.status.conditions[0].reason,
    },
    { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' },
  );
  const events = (await get(`/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DFailedScheduling`)).body
    .items;
  assert.equal(
    events[0].message,
    '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
  );
  assert.equal(events[0].source.component, 'default-scheduler');
});

test('the scheduler honours nodeSelector and required node affinity; a pod no node matches is Pending until one does', async () => {
  const ns = await namespace();
  await post(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'pinned' },
    spec: {
      containers: [{ name: 'c', image: 'nginx:1' }],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-2'] }] },
            ],
          },
        },
      },
    },
  });
  await post(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'picky' },
    spec: { containers: [{ name: 'c', image: 'nginx:1' }], nodeSelector: { disktype: 'ssd' } },
  });
  const pinned = await eventually(
    () => get(`/api/v1/namespaces/${ns}/pods/pinned`),
    (r) => !!r.body.spec.nodeName,
    'pinned bound',
  );
  assert.equal(pinned.body.spec.nodeName, 'node-2');
  const picky = await eventually(
    () => get(`/api/v1/namespaces/${ns}/pods/picky`),
    (r) => !!r.body.status?.conditions,
    'PodScheduled',
  );
  assert.equal(picky.body.status.phase, 'Pending');
  assert.equal(picky.body.status.conditions[0].reason, 'Unschedulable');
  const events = (await get(`/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DFailedScheduling`)).body
    .items;
  assert.equal(
    events[0].message,
    "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
  );
  const labelled = await patch(
    '/api/v1/nodes/node-1',
    { metadata: { labels: { disktype: 'ssd' } } },
    'application/merge-patch+json',
  );
  assert.equal(labelled.status, 200);
  try {
    const bound = await eventually(
      () => get(`/api/v1/namespaces/${ns}/pods/picky`),
      (r) => r.body.status?.phase === 'Running',
      'picky running',
    );
    assert.equal(bound.body.spec.nodeName, 'node-1');
  } finally {
    await patch(
      '/api/v1/nodes/node-1',
      { metadata: { labels: { disktype: null } } },
      'application/merge-patch+json',
    );
  }
});

test('a StatefulSet makes name-0..n-1 in order, each once the one before is ready, and scales down from the top', async () => {
  const ns = await namespace();
  const start = api.cluster.store.resourceVersion;
  const watch = await kubeWatch(api, `/api/v1/namespaces/${ns}/pods?watch=1&resourceVersion=${start}`);
  try {
    await post(`/apis/apps/v1/namespaces/${ns}/statefulsets`, {
      metadata: { name: 'db' },
      spec: {
        replicas: 3,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'c', image: 'postgres:16' }] },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    });
    const order: string[] = [];
    const readyNames = new Set<string>();
    while (order.length < 3) {
      const e = await watch.next();
      if (e.type === 'ADDED') {
        // Each pod appears only once every lower ordinal is ready.
        assert.deepEqual(
          [...readyNames].sort(),
          order.slice().sort(),
          `${e.object.metadata.name} created before its predecessors were ready`,
        );
        order.push(e.object.metadata.name);
      }
      if (ready(e.object)) readyNames.add(e.object.metadata.name);
    }
    assert.deepEqual(order, ['db-0', 'db-1', 'db-2']);
  } finally {
    watch.close();
  }
  const sts = await eventually(
    () => get(`/apis/apps/v1/namespaces/${ns}/statefulsets/db`),
    (r) => r.body.status?.readyReplicas === 3,
    'three ready',
  );
  assert.equal(sts.body.status.currentRevision, sts.body.status.updateRevision);
  const claims = (await get(`/api/v1/namespaces/${ns}/persistentvolumeclaims`)).body.items.map(
    (c: Obj) => `${c.metadata.name}:${c.status.phase}`,
  );
  assert.deepEqual(claims, ['data-db-0:Bound', 'data-db-1:Bound', 'data-db-2:Bound']);
  // A deleted member comes back under the same name, as a new pod.
  const before = (await get(`/api/v1/namespaces/${ns}/pods/db-1`)).body;
  await del(`/api/v1/namespaces/${ns}/pods/db-1?gracePeriodSeconds=0`);
  const again = await eventually(
    () => get(`/api/v1/namespaces/${ns}/pods/db-1`),
    (r) => r.status === 200 && r.body.metadata.uid !== before.metadata.uid && ready(r.body),
    'db-1 again',
  );
  assert.equal(again.body.metadata.labels['statefulset.kubernetes.io/pod-name'], 'db-1');
  assert.deepEqual(again.body.spec.volumes.find((v: Obj) => v.name === 'data').persistentVolumeClaim, {
    claimName: 'data-db-1',
  });
  await patch(
    `/apis/apps/v1/namespaces/${ns}/statefulsets/db/scale`,
    { spec: { replicas: 1 } },
    'application/merge-patch+json',
  );
  const left = await eventually(
    () => pods(ns, 'app=db'),
    (p) => p.length === 1,
    'one pod left',
  );
  assert.equal(left[0].metadata.name, 'db-0');
});

test('a DaemonSet runs one pod on each node', async () => {
  const ns = await namespace();
  await post(`/apis/apps/v1/namespaces/${ns}/daemonsets`, {
    metadata: { name: 'agent' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'c', image: 'agent:1' }] },
      },
    },
  });
  const running = await eventually(
    () => pods(ns, 'app=agent'),
    (p) => p.length === 2 && p.every(ready),
    'two agents',
  );
  assert.deepEqual(running.map((p) => p.spec.nodeName).sort(), ['node-1', 'node-2']);
});

/** Follows a Deployment's pods through a watch: the most that existed at once and the fewest ready once all were. */
async function followRollout(
  ns: string,
  app: string,
  change: () => Promise<unknown>,
  done: (pods: Obj[]) => boolean,
) {
  const live = new Map<string, Obj>();
  for (const p of await pods(ns, `app=${app}`)) live.set(p.metadata.name, p);
  const watch = await kubeWatch(
    api,
    `/api/v1/namespaces/${ns}/pods?watch=1&labelSelector=app%3D${app}&resourceVersion=${api.cluster.store.resourceVersion}`,
  );
  const seen: { active: number; ready: number; hashes: string[] }[] = [];
  try {
    await change();
    while (!done([...live.values()])) {
      const e = await watch.next();
      if (e.type === 'DELETED') live.delete(e.object.metadata.name);
      else live.set(e.object.metadata.name, e.object);
      const all = [...live.values()];
      seen.push({
        active: all.filter((p) => !p.metadata.deletionTimestamp).length,
        ready: all.filter(ready).length,
        hashes: [...new Set(all.map((p) => p.metadata.labels['pod-template-hash']))],
      });
    }
  } finally {
    watch.close();
  }
  return seen;
}

test('a RollingUpdate with maxSurge 1 and maxUnavailable 0 never runs more than replicas+1 pods nor fewer than replicas ready', async () => {
  const ns = await namespace();
  await post(
    `/apis/apps/v1/namespaces/${ns}/deployments`,
    deployment('ru', {
      replicas: 4,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    }),
  );
  await eventually(
    () => pods(ns, 'app=ru'),
    (p) => p.length === 4 && p.every(ready),
    'four ready pods',
  );
  const image = (p: Obj) => p.spec.containers[0].image;
  const seen = await followRollout(
    ns,
    'ru',
    () =>
      patch(
        `/apis/apps/v1/namespaces/${ns}/deployments/ru`,
        { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] } } } },
        'application/strategic-merge-patch+json',
      ),
    (all) => all.length === 4 && all.every((p) => image(p) === 'nginx:1.26' && ready(p)),
  );
  assert.ok(seen.length > 8, 'the rollout was seen step by step');
  assert.ok(Math.max(...seen.map((s) => s.active)) <= 5, JSON.stringify(seen));
  assert.ok(Math.min(...seen.map((s) => s.ready)) >= 4, JSON.stringify(seen));
  const d = await eventually(
    () => get(`/apis/apps/v1/namespaces/${ns}/deployments/ru`),
    (r) => r.body.status?.updatedReplicas === 4 && r.body.status?.replicas === 4,
    'the status',
  );
  assert.equal(
    d.body.status.conditions.find((c: Obj) => c.type === 'Progressing').reason,
    'NewReplicaSetAvailable',
  );
});

test('a Recreate rollout creates the new pods only once every old pod is gone', async () => {
  const ns = await namespace();
  await post(
    `/apis/apps/v1/namespaces/${ns}/deployments`,
    deployment('rc', { replicas: 3, strategy: { type: 'Recreate' } }),
  );
  await eventually(
    () => pods(ns, 'app=rc'),
    (p) => p.length === 3 && p.every(ready),
    'three ready pods',
  );
  const seen = await followRollout(
    ns,
    'rc',
    () =>
      patch(
        `/apis/apps/v1/namespaces/${ns}/deployments/rc`,
        { spec: { template: { metadata: { labels: { app: 'rc', v: '2' } } } } },
        'application/strategic-merge-patch+json',
      ),
    (all) => all.length === 3 && all.every((p) => p.metadata.labels.v === '2' && ready(p)),
  );
  assert.ok(
    seen.every((s) => s.hashes.length <= 1),
    `old and new pods at once: ${JSON.stringify(seen)}`,
  );
  assert.ok(
    seen.some((s) => s.active === 0),
    'every old pod went before a new one came',
  );
});

test('a pod whose image is changed in place restarts that container, or waits in ErrImagePull when it cannot be pulled', async () => {
  const ns = await namespace();
  await post(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: 'inplace' },
    spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
  });
  await eventually(
    () => get(`/api/v1/namespaces/${ns}/pods/inplace`),
    (r) => ready(r.body),
    'running',
  );
  const path = `/api/v1/namespaces/${ns}/pods/inplace`;
  await patch(
    path,
    { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } },
    'application/strategic-merge-patch+json',
  );
  const restarted = await eventually(
    () => get(path),
    (r) => r.body.status.containerStatuses[0].image === 'nginx:1.26',
    'the restart',
  );
  assert.equal(restarted.body.status.containerStatuses[0].restartCount, 1);
  assert.ok(ready(restarted.body));
  api.cluster.failures.imagePullError('nginx:gone');
  await patch(
    path,
    { spec: { containers: [{ name: 'c', image: 'nginx:gone' }] } },
    'application/strategic-merge-patch+json',
  );
  const stuck = await eventually(
    () => get(path),
    (r) => r.body.status.containerStatuses[0].image === 'nginx:gone',
    'the failed restart',
  );
  assert.equal(stuck.body.status.containerStatuses[0].state.waiting.reason, 'ErrImagePull');
  assert.equal(ready(stuck.body), false);
  const other = await patch(
    path,
    { spec: { restartPolicy: 'Never' } },
    'application/strategic-merge-patch+json',
  );
  assert.equal(other.status, 422);
  assert.match(
    other.body.message,
    /^Pod "inplace" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/,
  );
});

test('updates keep what the real server keeps: a Service its cluster IP, a StatefulSet its fixed fields', async () => {
  const ns = await namespace();
  const svc = (
    await post(`/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 's' },
      spec: { type: 'NodePort', selector: { a: 'b' }, ports: [{ port: 80 }] },
    })
  ).body;
  assert.ok(svc.spec.ports[0].nodePort >= 30000 && svc.spec.ports[0].nodePort <= 32767);
  const put = await kubeRequest(api, 'PUT', `/api/v1/namespaces/${ns}/services/s`, {
    body: {
      metadata: { name: 's' },
      spec: { type: 'NodePort', selector: { a: 'c' }, ports: [{ port: 80 }] },
    },
  });
  assert.equal(put.status, 200);
  assert.equal(put.body.spec.clusterIP, svc.spec.clusterIP);
  assert.equal(put.body.spec.ports[0].nodePort, svc.spec.ports[0].nodePort);
  const moved = await patch(
    `/api/v1/namespaces/${ns}/services/s`,
    { spec: { clusterIP: '10.96.99.99' } },
    'application/merge-patch+json',
  );
  assert.equal(moved.status, 422);

  await post(`/apis/apps/v1/namespaces/${ns}/statefulsets`, {
    metadata: { name: 'st' },
    spec: {
      serviceName: 'st',
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } },
    },
  });
  const fixed = await patch(
    `/apis/apps/v1/namespaces/${ns}/statefulsets/st`,
    { spec: { serviceName: 'other' } },
    'application/merge-patch+json',
  );
  assert.equal(fixed.status, 422);
  assert.equal(
    fixed.body.message,
    "StatefulSet.apps \"st\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  );
  assert.equal(
    (
      await patch(
        `/apis/apps/v1/namespaces/${ns}/statefulsets/st`,
        { spec: { replicas: 2 } },
        'application/merge-patch+json',
      )
    ).status,
    200,
  );
});

test('a Deployment whose pods the quota refuses shows the ReplicaSet failure in its conditions', async () => {
  const ns = await namespace();
  api.cluster.failures.quota({ name: 'small', namespace: ns, resource: 'pods', hard: 1 });
  await post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('q'));
  const d = await eventually(
    () => get(`/apis/apps/v1/namespaces/${ns}/deployments/q`),
    (r) => (r.body.status?.conditions ?? []).some((c: Obj) => c.type === 'ReplicaFailure'),
    'ReplicaFailure',
  );
  const failure = d.body.status.conditions.find((c: Obj) => c.type === 'ReplicaFailure');
  assert.equal(failure.reason, 'FailedCreate');
  assert.match(
    failure.message,
    /is forbidden: exceeded quota: small, requested: pods=1, used: pods=1, limited: pods=1$/,
  );
});
