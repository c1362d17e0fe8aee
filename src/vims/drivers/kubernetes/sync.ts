/**
 * Drift: Kubernetes replaces pods by itself (a node lost, a pod evicted or deleted by hand, a
 * replica count changed with kubectl). The instance is read back from its pods as an operation
 * would read them (vnfcs.ts): a VNFC whose pod went takes a new pod of its VDU, a VDU with more
 * pods than VNFCs gains VNFCs (new ids), one with fewer loses its newest VNFCs. Nothing is
 * applied and no pod is labelled: it only reads. The result when it differs, else undefined.
 */
import { randomUUID } from 'node:crypto';
import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../../sol/instance-model.ts';
import type { VimConnection } from '../../contract.ts';
import { idsByVdu } from './converge.ts';
import { type KubernetesDeps, withClient } from './deps.ts';
import { infoOf } from './info.ts';
import { vduSelector } from './names.ts';
import { stateOf, storedWorkload } from './state.ts';
import { assignPods, nodeZones, ordered } from './vnfcs.ts';

const key = (vnfcs: readonly VnfcResourceInfo[] | undefined) =>
  JSON.stringify((vnfcs ?? []).map((v) => [v.id, v.vduId, v.computeResource.resourceId]).sort());

export async function sync(
  deps: KubernetesDeps,
  vim: VimConnection,
  instanceId: string,
  info: InstantiatedVnfInfo,
): Promise<InstantiatedVnfInfo | undefined> {
  const state = stateOf(info);
  const before = info.vnfcResourceInfo ?? [];
  const ids = idsByVdu(before);
  const vnfcs = await withClient(deps, vim, async (client) => {
    const zones = await nodeZones(client, new AbortController().signal);
    const out: VnfcResourceInfo[] = [];
    for (const vduId of Object.keys(state.vdu_reses)) {
      const workload = storedWorkload(vduId, state.vdu_reses[vduId]);
      const pods = (await client.pods(state.namespace, vduSelector(instanceId, vduId))).filter(
        (p) => !p.metadata.deletionTimestamp,
      );
      const had = ids.get(vduId) ?? [];
      // Fewer pods: the newest VNFCs go (as a scale in would choose); more: new VNFCs.
      const keep = had.slice(Math.max(had.length - pods.length, 0));
      const add = Array.from({ length: Math.max(pods.length - had.length, 0) }, () => randomUUID());
      const vduBefore = before.filter((v) => v.vduId === vduId);
      out.push(
        ...assignPods({ vduId, kind: workload.info.kind, before: vduBefore, keep, add }, pods, vim.id, zones),
      );
    }
    return ordered(out, before);
  });
  if (key(vnfcs) === key(before)) return undefined;
  return infoOf(info.flavourId, vnfcs, state, {
    ...(info.scaleStatus ? { scaleStatus: info.scaleStatus } : {}),
    ...(info.maxScaleLevels ? { maxScaleLevels: info.maxScaleLevels } : {}),
  });
}
