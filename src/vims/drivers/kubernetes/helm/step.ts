/**
 * An operation on a Helm instance's release after instantiate (scale, heal, change of package,
 * the rollbacks): the pods it removes marked to go first, the helm action run, the release's
 * workloads read back from its manifest and converged (realise.ts), and the instance's state
 * with the revision the release now runs.
 */
import type { VnfcResourceInfo } from '../../../../sol/instance-model.ts';
import type { OperationContext } from '../../../contract.ts';
import { type KubernetesDeps, withClient } from '../deps.ts';
import { flavourOf } from '../design.ts';
import { DELETION_COST, instanceSelector } from '../names.ts';
import { type HelmState, type KubeState, refOf } from '../state.ts';
import { realise, releaseObjects, releaseWorkloads } from './realise.ts';
import { deployedRevision, manifestOf } from './release.ts';
import { type Helm, withHelm } from './run.ts';

export interface Step {
  action: (helm: Helm, dir: string) => Promise<unknown>;
  /** Per VDU of the instance, the VNFCs kept and added. */
  vdus: { vduId: string; keep: string[]; add: string[] }[];
  /** Pods to remove first (a scale in chooses them). */
  removing?: string[];
  /** Pods that must be gone before the VDUs count as rolled out. */
  replaced?: ReadonlySet<string>;
  /** The pods the instance does not list (an operation being rolled back made them) go first and must be gone. */
  removeUnknown?: boolean;
  /** The chart the release runs after the step. */
  chart?: string;
}

export async function helmStep(
  deps: KubernetesDeps,
  ctx: OperationContext,
  state: KubeState & { helm: HelmState },
  step: Step,
): Promise<{ vnfcs: VnfcResourceInfo[]; state: KubeState }> {
  const before = ctx.current?.vnfcResourceInfo ?? [];
  const flavour = flavourOf(ctx.vnfd, ctx.current?.flavourId ?? ctx.flavourId);
  return withClient(deps, ctx.vim, async (client) => {
    const removing = [...(step.removing ?? [])];
    const replaced = new Set(step.replaced ?? []);
    if (step.removeUnknown) {
      const known = new Set(before.map((v) => v.computeResource.resourceId));
      for (const p of await client.pods(state.namespace, instanceSelector(ctx.instanceId), ctx.signal)) {
        if (known.has(p.metadata.name)) continue;
        removing.push(p.metadata.name);
        replaced.add(p.metadata.name);
      }
    }
    for (const pod of removing) {
      await client.patchPodMetadata(
        state.namespace,
        pod,
        { annotations: { [DELETION_COST]: '-1000' } },
        ctx.signal,
      );
    }
    return withHelm(deps.config, ctx.vim, state.namespace, ctx.signal, async (helm, dir) => {
      await step.action(helm, dir);
      const objects = releaseObjects(await manifestOf(helm, state.helm.release), deps);
      const workloads = releaseWorkloads(flavour, objects, ctx.additionalParams);
      const vnfcs = await realise(client, deps, ctx, {
        namespace: state.namespace,
        workloads,
        vdus: step.vdus,
        before,
        replaced,
      });
      const revision = await deployedRevision(helm, state.helm.release);
      return {
        vnfcs,
        state: {
          ...state,
          vdu_reses: Object.fromEntries([...workloads].map(([vduId, o]) => [vduId, o.body])),
          resources: objects.map(refOf),
          helm: { ...state.helm, revision, ...(step.chart ? { chart: step.chart } : {}) },
        },
      };
    });
  });
}
