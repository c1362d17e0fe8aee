/**
 * What the Kubernetes driver makes of a package's manifests before the API server sees them:
 * kinds a package may apply (cluster-scoped and privilege-granting ones only when the operator
 * allows them), one namespace, the workload of each VDU, Bosun's labels, and which pod becomes
 * which VNFC.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InfraError } from '../../../src/vims/contract.ts';
import type { Pod } from '../../../src/vims/drivers/kubernetes/client/types.ts';
import { manifestObjects, targetNamespace } from '../../../src/vims/drivers/kubernetes/manifests/objects.ts';
import { LABELS } from '../../../src/vims/drivers/kubernetes/names.ts';
import { assignPods } from '../../../src/vims/drivers/kubernetes/vnfcs.ts';
import { stamped, vduWorkloads } from '../../../src/vims/drivers/kubernetes/workloads.ts';
import type { Flavour } from '../../../src/vnfd/model/vnfd.ts';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: vdu2
  namespace: default
spec:
  replicas: 2
  selector:
    matchLabels: { app: webserver }
  template:
    metadata:
      labels: { app: webserver }
    spec:
      containers:
      - name: nginx
        image: nginx:alpine
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports: [{ port: 80 }]
`;

const BINDING = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: take-over
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin }
subjects: [{ kind: ServiceAccount, name: default, namespace: default }]
`;

const limits = { maxObjects: 10, allowKinds: [] as string[] };
const files = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([k, v]) => [k, Buffer.from(v)]));

function refused(work: () => unknown, pattern: RegExp): void {
  assert.throws(
    work,
    (e: unknown) => e instanceof InfraError && e.code === 'INVALID_REQUEST' && pattern.test(e.message),
  );
}

const flavour = {
  vdus: [
    { id: 'VDU1', name: 'vdu1' },
    { id: 'VDU2', name: 'vdu2' },
  ],
} as unknown as Flavour;

describe('Kubernetes manifests', () => {
  test('the objects of every document, in order, with their kind', () => {
    const objects = manifestObjects(files({ 'Files/kubernetes/d.yaml': DEPLOYMENT }), limits);
    assert.deepEqual(
      objects.map((o) => [o.info.kind, o.name, o.file]),
      [
        ['Deployment', 'vdu2', 'Files/kubernetes/d.yaml'],
        ['Service', 'web', 'Files/kubernetes/d.yaml'],
      ],
    );
  });

  test('a cluster-scoped, privilege-granting kind is refused unless the operator allows it', () => {
    refused(
      () => manifestObjects(files({ 'Files/kubernetes/b.yaml': BINDING }), limits),
      /^Files\/kubernetes\/b\.yaml: ClusterRoleBinding take-over: a cluster-scoped kind, which packages may apply only when the operator lists ClusterRoleBinding in kubernetes\.allowKinds\.$/,
    );
    const allowed = manifestObjects(files({ 'b.yaml': BINDING }), {
      ...limits,
      allowKinds: ['ClusterRoleBinding'],
    });
    assert.equal(allowed[0].info.namespaced, false);
  });

  test('unknown kinds, nameless objects, too many objects and bad YAML are refused by name', () => {
    refused(
      () =>
        manifestObjects(files({ 'a.yaml': 'apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n' }), limits),
      /a\.yaml: Widget w: Bosun does not apply objects of kind Widget/,
    );
    refused(
      () => manifestObjects(files({ 'a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n' }), limits),
      /a ConfigMap has no valid metadata\.name/,
    );
    refused(
      () => manifestObjects(files({ 'a.yaml': DEPLOYMENT }), { ...limits, maxObjects: 1 }),
      /more than 1 objects \(kubernetes\.maxObjects\)/,
    );
    refused(() => manifestObjects(files({ 'a.yaml': 'kind: [' }), limits), /a\.yaml: it is not valid YAML/);
    refused(
      () =>
        manifestObjects(
          files({ 'a.yaml': 'apiVersion: v1\nkind: Deployment\nmetadata: {name: x}\n' }),
          limits,
        ),
      /apiVersion v1 is not the API group of Deployment/,
    );
  });

  test("one namespace: the request's, else the manifests', else default; another one is refused", () => {
    const objects = manifestObjects(files({ 'd.yaml': DEPLOYMENT }), limits);
    assert.equal(targetNamespace(undefined, objects), 'default');
    refused(
      () => targetNamespace('curry', objects),
      /d\.yaml: Deployment vdu2 names namespace default, but the instance's namespace is curry/,
    );
    refused(() => targetNamespace('Not_A_Namespace', objects), /additionalParams\.namespace/);
    const none = manifestObjects(
      files({ 'd.yaml': DEPLOYMENT.replace('  namespace: default\n', '') }),
      limits,
    );
    assert.equal(targetNamespace('curry', none), 'curry');
  });

  test("a VDU's workload is the one named as the VDU, or the one vdu_mapping names", () => {
    const objects = manifestObjects(files({ 'd.yaml': DEPLOYMENT }), limits);
    assert.deepEqual(
      [...vduWorkloads(flavour, objects, undefined)].map(([v, o]) => [v, o.name]),
      [['VDU2', 'vdu2']],
    );
    assert.deepEqual(
      [
        ...vduWorkloads(flavour, objects, { vdu_mapping: { VDU1: { kind: 'Deployment', name: 'vdu2' } } }),
      ].map(([v, o]) => [v, o.name]),
      [
        ['VDU1', 'vdu2'],
        ['VDU2', 'vdu2'],
      ],
    );
    refused(
      () => vduWorkloads(flavour, objects, { vdu_mapping: { VDU1: 'nothing' } }),
      /maps VDU1 to a workload nothing, which no manifest defines/,
    );
  });

  test("Bosun's labels on the object and its pod template, the namespace and replicas; the manifest is not changed", () => {
    const [deployment] = manifestObjects(files({ 'd.yaml': DEPLOYMENT }), limits);
    const body = stamped(deployment, {
      instanceId: 'i1',
      opOccId: 'o1',
      namespace: 'default',
      vduId: 'VDU2',
      replicas: 3,
    });
    const meta = body.metadata as { labels: Record<string, string> };
    assert.deepEqual(meta.labels, { [LABELS.instance]: 'i1', [LABELS.opOcc]: 'o1' });
    const spec = body.spec as {
      replicas: number;
      template: { metadata: { labels: Record<string, string> } };
    };
    assert.equal(spec.replicas, 3);
    assert.deepEqual(spec.template.metadata.labels, {
      app: 'webserver',
      [LABELS.instance]: 'i1',
      [LABELS.vdu]: 'VDU2',
    });
    assert.equal((deployment.body.spec as { replicas: number }).replicas, 2);
  });
});

const pod = (name: string, created: string, terminating = false): Pod => ({
  metadata: { name, creationTimestamp: created, ...(terminating ? { deletionTimestamp: created } : {}) },
});

const vnfc = (id: string, podName: string) => ({
  id,
  vduId: 'VDU2',
  computeResource: { vimConnectionId: 'vim', resourceId: podName, vimLevelResourceType: 'Deployment' },
});

describe('pods as VNFCs', () => {
  test('a VNFC keeps its pod; a replaced pod takes the id of the VNFC whose pod went; new pods the new ids', () => {
    const before = [vnfc('a', 'vdu2-x-aaaaa'), vnfc('b', 'vdu2-x-bbbbb')];
    const pods = [
      pod('vdu2-y-ccccc', '2026-01-01T00:00:03Z'),
      pod('vdu2-x-aaaaa', '2026-01-01T00:00:01Z'),
      pod('vdu2-y-ddddd', '2026-01-01T00:00:04Z'),
      pod('vdu2-x-bbbbb', '2026-01-01T00:00:01Z', true),
    ];
    const out = assignPods(
      { vduId: 'VDU2', kind: 'Deployment', before, keep: ['a', 'b'], add: ['c'] },
      pods,
      'vim',
    );
    assert.deepEqual(
      out.map((v) => [v.id, v.computeResource.resourceId]),
      [
        ['c', 'vdu2-y-ddddd'],
        ['a', 'vdu2-x-aaaaa'],
        ['b', 'vdu2-y-ccccc'],
      ],
    );
  });

  test('more or fewer pods than VNFCs is an error saying replicas changed outside Bosun', () => {
    assert.throws(
      () => assignPods({ vduId: 'VDU2', kind: 'Deployment', before: [], keep: [], add: ['c'] }, [], 'vim'),
      /VDU2 runs 0 pods where its 1 VNFCs need 1/,
    );
  });
});
