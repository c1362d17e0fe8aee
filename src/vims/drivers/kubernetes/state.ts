/**
 * What the driver keeps of an instance, in instantiatedVnfInfo.metadata under Tacker's names
 * (`namespace`, `tenant`, `lcm-kubernetes-def-files`, `vdu_reses`: each VDU's workload as
 * applied) plus `resources`, every object applied (kind and name), so that scale, heal, change
 * package and rollbacks work from the instance alone, and a rollback knows what was there before.
 * A Helm instance also has `helm`: its release, chart, replica keys and the revision it runs.
 */
import type { InstantiatedVnfInfo } from '../../../sol/instance-model.ts';
import { InfraError } from '../../contract.ts';
import { kindInfo } from './client/kinds.ts';
import type { ManifestObject } from './manifests/objects.ts';

export interface ObjectRef {
  kind: string;
  apiVersion: string;
  name: string;
}

export interface KubeState {
  namespace: string;
  tenant: string;
  'lcm-kubernetes-def-files'?: string[];
  vdu_reses: Record<string, Record<string, unknown>>;
  resources: ObjectRef[];
  helm?: HelmState;
}

export interface HelmState {
  release: string;
  /** The chart (package path) the release runs. */
  chart: string;
  /** Per VDU, the values key of its replicas (helm_value_names). */
  valueNames: Record<string, string>;
  /** The release's revision after the instance's last operation (a rollback returns to it). */
  revision: number;
}

const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function stateOf(info: InstantiatedVnfInfo | undefined): KubeState {
  const m = info?.metadata;
  if (!isMapping(m) || typeof m.namespace !== 'string' || !isMapping(m.vdu_reses)) {
    throw new InfraError(
      'INVALID_REQUEST',
      'The instance has no Kubernetes state (instantiatedVnfInfo.metadata.namespace and vdu_reses); it was not instantiated by the Kubernetes driver.',
    );
  }
  return {
    namespace: m.namespace,
    tenant: typeof m.tenant === 'string' ? m.tenant : m.namespace,
    ...(Array.isArray(m['lcm-kubernetes-def-files'])
      ? { 'lcm-kubernetes-def-files': m['lcm-kubernetes-def-files'] as string[] }
      : {}),
    vdu_reses: m.vdu_reses as Record<string, Record<string, unknown>>,
    resources: Array.isArray(m.resources) ? (m.resources as ObjectRef[]) : [],
    ...(isMapping(m.helm) ? { helm: m.helm as unknown as HelmState } : {}),
  };
}

/** A stored workload body as a manifest object again (to re-apply it). */
export function storedWorkload(vduId: string, body: Record<string, unknown>): ManifestObject {
  const info = kindInfo(String(body.kind));
  const name = (body.metadata as { name?: unknown } | undefined)?.name;
  if (!info || typeof name !== 'string') {
    throw new InfraError(
      'INVALID_REQUEST',
      `The stored workload of ${vduId} is not a Kubernetes object Bosun knows.`,
    );
  }
  return { info: { ...info, apiVersion: String(body.apiVersion) }, name, body, file: `vdu_reses.${vduId}` };
}

export const refOf = (o: ManifestObject): ObjectRef => ({
  kind: o.info.kind,
  apiVersion: o.info.apiVersion,
  name: o.name,
});
