/**
 * The Kubernetes driver against the test API server (test/support/kube-api: a stand-in for a
 * real cluster, checked against the real kubectl): sample packages stored in a blob store under
 * ids the operations read their manifests from, the driver with short polls, a VIM connection
 * with the server's CA and token, and the cluster as the real `kubectl` shows it, by instance.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { KubernetesConfigSchema } from '../../../src/config/kubernetes-schema.ts';
import { OutboundPolicy } from '../../../src/net/address-policy.ts';
import { packageBlobKey } from '../../../src/packages/package-record.ts';
import { FsBlobStore } from '../../../src/store/blobs/index.ts';
import type { InfraDriver, VimConnection } from '../../../src/vims/contract.ts';
import type { KubernetesConfig } from '../../../src/vims/drivers/kubernetes/deps.ts';
import { createKubernetesDriver } from '../../../src/vims/drivers/kubernetes/driver.ts';
import { LABELS } from '../../../src/vims/drivers/kubernetes/names.ts';
import { type KubeApi, startKubeApi } from '../../support/kube-api/index.ts';
import { type Kubectl, kubectlFor } from '../../support/kube-api/kubectl.ts';
import { SAMPLES_DIR } from '../../support/samples.ts';
import { tempDir } from '../../support/temp.ts';
import type { TaggedResource } from '../contract-suite.ts';

export const ZONES = ['zone-a', 'zone-b'] as const;

export interface KubeFixture {
  api: KubeApi;
  kubectl: Kubectl;
  driver: InfraDriver;
  vim: VimConnection;
  config: KubernetesConfig;
  blobs: FsBlobStore;
  /** The objects labelled with the instance, as `kubectl get` lists them (pods with their op occ). */
  resources(instanceId: string): Promise<TaggedResource[]>;
  /** The instance's pods as kubectl lists them: name → { vdu, phase, image, node }. */
  pods(
    instanceId: string,
    namespace?: string,
  ): Promise<Map<string, { vdu: string; phase: string; images: string[] }>>;
  close(): Promise<void>;
}

const KINDS =
  'deployments,statefulsets,replicasets,daemonsets,pods,services,configmaps,secrets,persistentvolumeclaims,serviceaccounts';

interface Listed {
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; ownerReferences?: unknown[] };
  spec?: { containers?: { image: string }[] };
  status?: { phase?: string };
}

export async function kubeFixture(
  packages: Record<string, string>,
  overrides: Partial<KubernetesConfig> = {},
): Promise<KubeFixture> {
  // The kubelet's first image pull back-off is ten seconds: a retry sooner meets the old pull failure.
  const api = await startKubeApi({ nodes: ['node-1', 'node-2'], imagePullBackOffMs: 10_000 });
  const kubectl = kubectlFor(api);
  for (const [i, node] of ['node-1', 'node-2'].entries()) {
    const r = await kubectl(['label', 'node', node, `topology.kubernetes.io/zone=${ZONES[i]}`]);
    if (r.code !== 0) throw new Error(r.stderr);
  }
  const blobs = new FsBlobStore(tempDir('bosun-k8s-packages-'));
  for (const [id, file] of Object.entries(packages)) {
    await blobs.put(packageBlobKey(id), createReadStream(join(SAMPLES_DIR, file)), { maxBytes: 2 ** 30 });
  }
  const config: KubernetesConfig = {
    ...(Value.Default(KubernetesConfigSchema, {}) as KubernetesConfig),
    pollIntervalMs: 50,
    rolloutTimeoutMs: 20_000,
    ...overrides,
  } as KubernetesConfig;
  const driver = createKubernetesDriver({ policy: new OutboundPolicy(['127.0.0.1']), blobs, config });
  const vim: VimConnection = {
    id: 'vim1',
    vimId: 'k8s-test',
    vimType: 'ETSINFV.KUBERNETES.V_1',
    interfaceInfo: { endpoint: api.url, ssl_ca_cert: api.caPem },
    accessInfo: { bearer_token: api.token },
  };
  const list = async (instanceId: string, kinds = KINDS, namespace?: string): Promise<Listed[]> => {
    const r = await kubectl([
      'get',
      kinds,
      ...(namespace ? ['-n', namespace] : ['-A']),
      '-l',
      `${LABELS.instance}=${instanceId}`,
      '-o',
      'json',
    ]);
    if (r.code !== 0) throw new Error(`kubectl get: ${r.stderr}`);
    return (JSON.parse(r.stdout) as { items: Listed[] }).items;
  };
  return {
    api,
    kubectl,
    driver,
    vim,
    config,
    blobs,
    async resources(instanceId) {
      const items = await list(instanceId);
      // A Deployment's ReplicaSets are its own (they carry its pod template's labels).
      return items
        .filter((o) => !(o.kind === 'ReplicaSet' && o.metadata.ownerReferences?.length))
        .map((o) => ({
          type: o.kind,
          id: o.metadata.name,
          ...(o.metadata.labels?.[LABELS.opOcc] ? { opOccId: o.metadata.labels[LABELS.opOcc] } : {}),
        }));
    },
    async pods(instanceId, namespace) {
      const items = await list(instanceId, 'pods', namespace);
      return new Map(
        items.map((p) => [
          p.metadata.name,
          {
            vdu: p.metadata.labels?.[LABELS.vdu] ?? '',
            phase: p.status?.phase ?? '',
            images: (p.spec?.containers ?? []).map((c) => c.image),
          },
        ]),
      );
    },
    async close() {
      await api.stop();
    },
  };
}
