/**
 * Heal. Named VNFCs (SOL002): their pods are deleted and their workloads' controllers make new
 * ones, which take the VNFCs' ids (MODIFIED, a new computeResource). The whole VNF (every VNFC,
 * SOL003): the instance's manifests are applied again first — what was deleted or changed behind
 * Bosun's back comes back as the package has it — and then every pod is replaced. A bare Pod is
 * deleted, waited for, and applied again. A retry deletes only pods not yet replaced. A Helm
 * instance's whole heal upgrades its release again instead of applying manifests (helm/).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DriverResult, HealPlan, OperationContext } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import type { KubeClient } from '../client/client.ts';
import { converge, idsByVdu } from '../converge.ts';
import { type KubernetesDeps, withClient } from '../deps.ts';
import { design } from '../design.ts';
import { helmReinstall, isHelm } from '../helm/operations.ts';
import { infoOf } from '../info.ts';
import { LABELS } from '../names.ts';
import { type KubeState, stateOf, storedWorkload } from '../state.ts';
import { stamped } from '../workloads.ts';

async function podGone(
  client: KubeClient,
  deps: KubernetesDeps,
  namespace: string,
  pod: string,
  signal: AbortSignal,
) {
  const deadline = Date.now() + deps.config.rolloutTimeoutMs;
  const info = storedPodInfo;
  while (await client.get(info, pod, namespace, signal)) {
    if (Date.now() >= deadline)
      throw new InfraError('VIM_TIMEOUT', `Pod ${pod} was not deleted within kubernetes.rolloutTimeoutMs.`);
    await sleep(deps.config.pollIntervalMs, undefined, { signal }).catch(() => {
      throw new InfraError('CANCELLED', 'The heal was abandoned: the operation was cancelled.');
    });
  }
}

const storedPodInfo = {
  kind: 'Pod',
  apiVersion: 'v1',
  plural: 'pods',
  namespaced: true,
  safe: true,
  workload: 'pod' as const,
};

/** Whole-VNF heal: the instance's manifests as its package has them, applied again. */
async function reapplied(deps: KubernetesDeps, ctx: OperationContext, state: KubeState) {
  const files = state['lcm-kubernetes-def-files'];
  if (!files) return [];
  const d = await design(deps, ctx, files, state.namespace);
  const workloadVdu = new Map(
    Object.entries(state.vdu_reses).map(([vduId, body]) => [storedWorkload(vduId, body).name, vduId]),
  );
  return d.objects
    .filter((o) => !o.info.workload || !workloadVdu.has(o.name))
    .map((object) => ({
      object,
      body: stamped(object, { instanceId: ctx.instanceId, opOccId: ctx.opOccId, namespace: state.namespace }),
    }));
}

export async function heal(
  deps: KubernetesDeps,
  ctx: OperationContext,
  plan: HealPlan,
): Promise<DriverResult> {
  const current = ctx.current;
  const state = stateOf(current);
  const before = current?.vnfcResourceInfo ?? [];
  const targets = before.filter((v) => plan.vnfcs.includes(v.id));
  const whole = before.length > 0 && targets.length === before.length;
  // A Helm instance's whole heal upgrades its release again first (what was deleted comes back).
  const helm = whole && isHelm(state) ? await helmReinstall(deps, ctx, state) : undefined;
  const vnfcs = await withClient(deps, ctx.vim, async (client) => {
    const apply = whole && !helm ? await reapplied(deps, ctx, state) : [];
    // The VDU workloads too (a deleted Deployment comes back), with the replicas they have.
    const counts = idsByVdu(before);
    for (const [vduId, body] of Object.entries(state.vdu_reses)) {
      const workload = storedWorkload(vduId, body);
      if (workload.info.workload === 'pod') continue;
      if (whole && !helm)
        apply.push({
          object: workload,
          body: stamped(workload, {
            instanceId: ctx.instanceId,
            opOccId: ctx.opOccId,
            namespace: state.namespace,
            vduId,
            replicas: counts.get(vduId)?.length ?? 0,
          }),
        });
    }
    const replaced = new Set<string>();
    for (const v of targets) {
      const pod = v.computeResource.resourceId;
      const live = await client.get(storedPodInfo, pod, state.namespace, ctx.signal);
      // A retry: this VNFC's pod was already replaced by the attempt before (it is not labelled by this op occ).
      if (!live || live.metadata.labels?.[LABELS.opOcc] === ctx.opOccId) continue;
      const workload = storedWorkload(v.vduId, state.vdu_reses[v.vduId] ?? {});
      await client.delete(storedPodInfo, pod, state.namespace, { gracePeriodSeconds: 0 }, ctx.signal);
      if (workload.info.workload === 'pod') {
        await podGone(client, deps, state.namespace, pod, ctx.signal);
        apply.push({
          object: workload,
          body: stamped(workload, {
            instanceId: ctx.instanceId,
            opOccId: ctx.opOccId,
            namespace: state.namespace,
            vduId: v.vduId,
          }),
        });
      } else {
        replaced.add(pod);
      }
    }
    const ids = idsByVdu(before);
    return converge(client, deps, ctx, {
      namespace: state.namespace,
      apply,
      vdus: Object.entries(state.vdu_reses).map(([vduId, body]) => ({
        vduId,
        workload: storedWorkload(vduId, body),
        keep: ids.get(vduId) ?? [],
        add: [],
      })),
      before,
      replaced,
    });
  });
  const info = infoOf(current?.flavourId ?? ctx.flavourId, vnfcs, helm?.state ?? state, {
    ...(current?.scaleStatus ? { scaleStatus: current.scaleStatus } : {}),
    ...(current?.maxScaleLevels ? { maxScaleLevels: current.maxScaleLevels } : {}),
  });
  return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
}
