/**
 * Rollback of what an op occ did. Instantiate: every object of the instance is deleted (none may
 * have been recorded yet, so they are found by label in the namespace the request chose). Scale
 * out: each VDU back to the replicas it had, the pods the op occ added removed first. Change of
 * package: the workloads as they were applied before (from the instance's state) applied again
 * — a rolling update back — and the objects the new package added deleted. A Helm instance: its
 * release uninstalled, or rolled back to the revision it ran before (helm/).
 */
import type { VnfcResourceInfo } from '../../../../sol/instance-model.ts';
import type { DriverResult, OperationContext, RollbackableOperation } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { kindInfo } from '../client/kinds.ts';
import { converge, idsByVdu } from '../converge.ts';
import { type KubernetesDeps, withClient } from '../deps.ts';
import { defFiles, design } from '../design.ts';
import { helmRollback, isHelm } from '../helm/operations.ts';
import { chartPath } from '../helm/request.ts';
import { helmRemove } from '../helm/terminate.ts';
import { infoOf } from '../info.ts';
import { targetNamespace } from '../manifests/objects.ts';
import { instanceSelector, LABELS } from '../names.ts';
import { removeInstance } from '../remove.ts';
import { scaleTo } from '../scale-to.ts';
import { stateOf, storedWorkload } from '../state.ts';
import { stamped } from '../workloads.ts';

type Rollback = (deps: KubernetesDeps, ctx: OperationContext) => Promise<DriverResult>;

async function namespaceOfRequest(deps: KubernetesDeps, ctx: OperationContext): Promise<string | undefined> {
  try {
    return (await design(deps, ctx, defFiles(ctx.additionalParams, 'Instantiate'))).namespace;
  } catch (error) {
    // The request failed its checks before anything was applied: nothing to remove.
    if (error instanceof InfraError && error.code === 'INVALID_REQUEST') return undefined;
    throw error;
  }
}

const sameInfo = (
  ctx: OperationContext,
  vnfcs: NonNullable<NonNullable<OperationContext['current']>['vnfcResourceInfo']>,
) => {
  const current = ctx.current as NonNullable<OperationContext['current']>;
  return infoOf(current.flavourId, vnfcs, stateOf(current), {
    ...(current.scaleStatus ? { scaleStatus: current.scaleStatus } : {}),
    ...(current.maxScaleLevels ? { maxScaleLevels: current.maxScaleLevels } : {}),
  });
};

/** A Helm instance's rollback of scale out or change of package: its release's revision before. */
async function helmBack(deps: KubernetesDeps, ctx: OperationContext) {
  const state = stateOf(ctx.current);
  if (!isHelm(state)) return undefined;
  const done = await helmRollback(deps, ctx, state);
  const current = ctx.current as NonNullable<OperationContext['current']>;
  const info = infoOf(current.flavourId, done.vnfcs, done.state, {
    ...(current.scaleStatus ? { scaleStatus: current.scaleStatus } : {}),
    ...(current.maxScaleLevels ? { maxScaleLevels: current.maxScaleLevels } : {}),
  });
  return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
}

export const ROLLBACKS: Partial<Record<RollbackableOperation, Rollback>> = {
  async INSTANTIATE(deps, ctx) {
    if (chartPath(ctx.additionalParams) !== undefined) {
      let namespace: string | undefined;
      try {
        namespace = targetNamespace(ctx.additionalParams?.namespace, []);
      } catch {
        // Refused before anything was installed.
      }
      if (namespace !== undefined) await helmRemove(deps, ctx, namespace, 0);
      return { changes: resourceChanges(ctx.current, undefined) };
    }
    const namespace = await namespaceOfRequest(deps, ctx);
    if (namespace !== undefined) {
      await withClient(deps, ctx.vim, (client) =>
        removeInstance(client, deps.config, namespace, ctx.instanceId, 0, ctx.signal),
      );
    }
    return { changes: resourceChanges(ctx.current, undefined) };
  },
  async SCALE_OUT(deps, ctx) {
    const helm = await helmBack(deps, ctx);
    if (helm) return helm;
    const current = ctx.current as NonNullable<OperationContext['current']>;
    const state = stateOf(current);
    const before = current.vnfcResourceInfo ?? [];
    const known = new Set(before.map((v) => v.computeResource.resourceId));
    const ids = new Set(before.map((v) => v.id));
    let added: VnfcResourceInfo[] = [];
    const vnfcs = await withClient(deps, ctx.vim, async (client) => {
      const pods = await client.pods(state.namespace, instanceSelector(ctx.instanceId), ctx.signal);
      // The VNFCs the scale out added, as their pods' labels say: what this rollback removes.
      added = pods.flatMap((p) => {
        const id = p.metadata.labels?.[LABELS.vnfc];
        const vduId = p.metadata.labels?.[LABELS.vdu];
        if (!id || !vduId || ids.has(id)) return [];
        const kind = String(state.vdu_reses[vduId]?.kind ?? 'Pod');
        return [
          {
            id,
            vduId,
            computeResource: {
              vimConnectionId: ctx.vim.id,
              resourceId: p.metadata.name,
              vimLevelResourceType: kind,
            },
          },
        ];
      });
      const extra = pods.filter((p) => !known.has(p.metadata.name)).map((p) => p.metadata.name);
      const done = await scaleTo(client, deps, ctx, state, current, { keep: ids, add: new Map() }, extra);
      return done.vnfcs;
    });
    const info = sameInfo(ctx, vnfcs);
    return {
      changes: resourceChanges({ ...current, vnfcResourceInfo: [...added, ...before] }, info),
      instantiatedVnfInfo: info,
    };
  },
  async CHANGE_VNFPKG(deps, ctx) {
    const helm = await helmBack(deps, ctx);
    if (helm) return helm;
    const current = ctx.current as NonNullable<OperationContext['current']>;
    const state = stateOf(current);
    const before = current.vnfcResourceInfo ?? [];
    const counts = idsByVdu(before);
    const had = new Set(state.resources.map((r) => `${r.kind}/${r.name}`));
    const vnfcs = await withClient(deps, ctx.vim, async (client) => {
      // The pods the change made go; the workloads roll back to the templates they had.
      const pods = await client.pods(state.namespace, instanceSelector(ctx.instanceId), ctx.signal);
      const known = new Set(before.map((v) => v.computeResource.resourceId));
      const replaced = new Set(pods.map((p) => p.metadata.name).filter((n) => !known.has(n)));
      const vdus = Object.entries(state.vdu_reses).map(([vduId, body]) => ({
        vduId,
        workload: storedWorkload(vduId, body),
        keep: counts.get(vduId) ?? [],
        add: [],
      }));
      const apply = vdus.map((v) => ({
        object: v.workload,
        body: stamped(v.workload, {
          instanceId: ctx.instanceId,
          opOccId: ctx.opOccId,
          namespace: state.namespace,
          vduId: v.vduId,
          replicas: v.keep.length,
        }),
      }));
      const result = await converge(client, deps, ctx, {
        namespace: state.namespace,
        apply,
        vdus,
        before,
        replaced,
      });
      await removeAdded(client, state.namespace, ctx, had);
      return result;
    });
    const info = sameInfo(ctx, vnfcs);
    return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
  },
};

/** Deletes the objects labelled with the op occ that the instance did not have before it. */
async function removeAdded(
  client: Parameters<Parameters<typeof withClient>[2]>[0],
  namespace: string,
  ctx: OperationContext,
  had: ReadonlySet<string>,
): Promise<void> {
  const selector = `${LABELS.instance}=${ctx.instanceId},${LABELS.opOcc}=${ctx.opOccId}`;
  for (const kind of [
    'ConfigMap',
    'Secret',
    'Service',
    'Deployment',
    'StatefulSet',
    'ReplicaSet',
    'DaemonSet',
    'PersistentVolumeClaim',
    'ServiceAccount',
    'Job',
    'CronJob',
  ]) {
    const info = kindInfo(kind);
    if (!info) continue;
    for (const item of await client.list(info, namespace, selector, ctx.signal)) {
      if (!had.has(`${kind}/${item.metadata.name}`)) {
        await client.delete(
          info,
          item.metadata.name,
          namespace,
          { propagationPolicy: 'Foreground' },
          ctx.signal,
        );
      }
    }
  }
}

export async function rollback(
  deps: KubernetesDeps,
  ctx: OperationContext,
  operation: RollbackableOperation,
): Promise<DriverResult> {
  const run = ROLLBACKS[operation];
  if (!run) {
    throw new InfraError(
      'INVALID_REQUEST',
      `Rollback of ${operation} is not supported by the Kubernetes driver.`,
    );
  }
  return run(deps, ctx);
}
