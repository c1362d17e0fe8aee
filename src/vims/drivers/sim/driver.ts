/**
 * The simulated VIM's infra driver (vimType BOSUN.SIM.V1), the embedded default. Every
 * operation computes the stack it wants (spec.ts) from the instance before it, its plan and the
 * grant, makes the VIM match (reconcile.ts), then reads the instance back from the VIM
 * (derive.ts) and reports what differs from before (resource-changes.ts). Because it compares
 * instead of replaying steps, a retry with the same op occ continues where the last attempt
 * stopped; rollback replays the op occ's journal backwards (rollback.ts).
 *
 * Decisions:
 * - One simulated cloud per Bosun database, whatever BOSUN.SIM.V1 VIM names it.
 * - VNFC ids are the engine's (the grant's COMPUTE ids) and survive heal, resize and rebuild:
 *   heal re-creates the server (a new compute resource id, same vnfcResourceInfo and vnfcInfo
 *   ids, reported MODIFIED), keeps its ports and, unless storage is healed too, its volumes.
 * - Graceful terminate and stop wait the requested timeout (capped by sim.gracefulWaitCapMs)
 *   only when servers are running; forceful ones do not wait.
 */

import type { InstantiatedVnfInfo } from '../../../sol/instance-model.ts';
import type { Database } from '../../../store/db/database.ts';
import type { Flavour, Vnfd } from '../../../vnfd/model/vnfd.ts';
import {
  type ChangeExtConnPlan,
  type ChangeFlavourPlan,
  type ChangeVnfpkgPlan,
  type DriverResult,
  type ExtVirtualLinkData,
  type HealPlan,
  type InfraDriver,
  InfraError,
  type InstantiatePlan,
  type OperatePlan,
  type OperationContext,
  type RollbackableOperation,
  type ScalePlan,
  type TerminatePlan,
  type VimConnection,
  type VnfcHealth,
} from '../../contract.ts';
import { resourceChanges } from '../resource-changes.ts';
import { type CallScope, vimCall, vimChange, wait } from './calls.ts';
import type { SimConfig } from './config.ts';
import { deriveInfo } from './derive.ts';
import { flavorFor } from './flavors.ts';
import { vnfcHealth } from './health.ts';
import { reconcile } from './reconcile.ts';
import { forgetOtherOpOccs, replayJournal } from './rollback.ts';
import {
  currentVnfcSpecs,
  findVdu,
  networksOf,
  newVnfcSpec,
  resolveImage,
  type StackSpec,
  type VnfcSpec,
} from './spec.ts';
import { currentServers, loadState, type StackParams } from './state.ts';
import { teardown } from './teardown.ts';
import { ensureTopology } from './topology.ts';

export interface SimDriverOptions {
  db: Database;
  sim: SimConfig;
}

export function flavourOf(vnfd: Vnfd, flavourId: string): Flavour {
  const flavour = vnfd.flavours.find((f) => f.flavourId === flavourId);
  if (!flavour)
    throw new InfraError('INVALID_REQUEST', `Flavour ${flavourId} is not in VNFD ${vnfd.vnf.descriptorId}.`);
  return flavour;
}

const zoneName = (ctx: OperationContext, vnfcId: string) => {
  const key = ctx.grant.zoneOf[vnfcId];
  return key === undefined ? undefined : ctx.grant.zones.find((z) => z.id === key)?.zoneId;
};

/** extVirtualLinks after a change: the new entries replace theirs and take their CPs from the others. */
export function mergeExtVirtualLinks(
  current: ExtVirtualLinkData[],
  changes: ExtVirtualLinkData[],
): ExtVirtualLinkData[] {
  const cpdsOf = (e: ExtVirtualLinkData) => ((e.extCps ?? []) as { cpdId: string }[]).map((c) => c.cpdId);
  const moved = new Set(changes.flatMap(cpdsOf));
  const changedIds = new Set(changes.map((e) => e.id));
  const kept = current
    .filter((e) => !changedIds.has(e.id))
    .map((e) => {
      const extCps = ((e.extCps ?? []) as { cpdId: string }[]).filter((c) => !moved.has(c.cpdId));
      return { entry: { ...e, extCps }, emptied: extCps.length === 0 && cpdsOf(e).length > 0 };
    })
    .filter((x) => !x.emptied)
    .map((x) => x.entry);
  return [...kept, ...changes];
}

export class SimDriver implements InfraDriver {
  readonly rollbackable: readonly RollbackableOperation[] = [
    'INSTANTIATE',
    'SCALE_OUT',
    'CHANGE_FLAVOUR',
    'CHANGE_EXT_CONN',
    'CHANGE_VNFPKG',
  ];
  readonly #db: Database;
  readonly #sim: SimConfig;

  constructor(options: SimDriverOptions) {
    this.#db = options.db;
    this.#sim = options.sim;
  }

  #scope(ctx: OperationContext, journal: boolean): CallScope {
    return {
      db: this.#db,
      sim: this.#sim,
      signal: ctx.signal,
      instanceId: ctx.instanceId,
      opOccId: ctx.opOccId,
      journalOpOccId: journal ? ctx.opOccId : undefined,
    };
  }

  /** The instance as the VIM holds it now. */
  async #derive(ctx: OperationContext): Promise<InstantiatedVnfInfo | undefined> {
    const state = await loadState(this.#db.kysely, ctx.instanceId);
    const flavour = ctx.vnfd.flavours.find((f) => f.flavourId === (state.params?.flavourId ?? ctx.flavourId));
    const exposes = Object.fromEntries((flavour?.extCps ?? []).map((c) => [c.id, c.internalVirtualLink]));
    return deriveInfo(state, ctx.vim.id, ctx.current, exposes);
  }

  async #result(ctx: OperationContext): Promise<DriverResult> {
    const info = await this.#derive(ctx);
    return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
  }

  /** Runs an operation that reshapes the stack: spec, reconcile, read back. */
  async #reshape(
    ctx: OperationContext,
    build: (scope: CallScope, stored: StackParams | undefined) => Promise<Omit<StackSpec, 'serverGroups'>>,
  ): Promise<DriverResult> {
    await ensureTopology(this.#db, this.#sim);
    const scope = this.#scope(ctx, true);
    await forgetOtherOpOccs(scope);
    const state = await loadState(this.#db.kysely, ctx.instanceId);
    const spec = await build(scope, state.params);
    await reconcile(scope, { ...spec, serverGroups: ctx.grant.serverGroups });
    return this.#result(ctx);
  }

  /** The stored parameters of an instantiated VNF (its stack must exist). */
  #stored(
    ctx: OperationContext,
    stored: StackParams | undefined,
  ): { params: StackParams; current: InstantiatedVnfInfo } {
    if (!stored || !ctx.current) {
      throw new InfraError('NOT_FOUND', `The VIM has no stack for VNF instance ${ctx.instanceId}.`, {
        instanceId: ctx.instanceId,
      });
    }
    return { params: stored, current: ctx.current };
  }

  instantiate(ctx: OperationContext, plan: InstantiatePlan): Promise<DriverResult> {
    return this.#reshape(ctx, async (scope) => {
      const flavour = flavourOf(ctx.vnfd, ctx.flavourId);
      const vnfcs: VnfcSpec[] = [];
      for (const v of plan.vnfcs) vnfcs.push(await newVnfcSpec(scope, flavour, ctx.grant, v));
      return {
        flavour,
        networks: plan.virtualLinks,
        vnfcs,
        params: {
          flavourId: ctx.flavourId,
          vnfdId: ctx.vnfd.vnf.descriptorId,
          ...(plan.instantiationLevelId ? { instantiationLevelId: plan.instantiationLevelId } : {}),
          scaleStatus: plan.scaleStatus,
          maxScaleLevels: plan.maxScaleLevels,
          extVirtualLinks: plan.extVirtualLinks,
          extManagedVirtualLinks: plan.extManagedVirtualLinks,
          ...(plan.localizationLanguage ? { localizationLanguage: plan.localizationLanguage } : {}),
        },
      };
    });
  }

  async terminate(ctx: OperationContext, plan: TerminatePlan): Promise<DriverResult> {
    await ensureTopology(this.#db, this.#sim);
    const scope = this.#scope(ctx, false);
    const state = await loadState(this.#db.kysely, ctx.instanceId);
    const running = state.servers.filter((s) => s.status === 'ACTIVE');
    if (plan.terminationType === 'GRACEFUL' && running.length > 0) {
      for (const s of running) {
        await vimChange(scope, 'server.stop', (j) =>
          j.update('sim_servers', s.id, { power: 'off', status: 'SHUTOFF' }),
        );
      }
      await wait(
        Math.min((plan.gracefulTerminationTimeout ?? 0) * 1000, this.#sim.gracefulWaitCapMs),
        ctx.signal,
      );
    }
    await teardown(scope);
    return { changes: resourceChanges(ctx.current, undefined), instantiatedVnfInfo: undefined };
  }

  scale(ctx: OperationContext, plan: ScalePlan): Promise<DriverResult> {
    return this.#reshape(ctx, async (scope, stored) => {
      const { params, current } = this.#stored(ctx, stored);
      const flavour = flavourOf(ctx.vnfd, ctx.flavourId);
      // Every aspect's VNFCs in one stack: removals and additions reconcile together.
      const existing = await currentVnfcSpecs(scope, current);
      const unknown = plan.remove.filter((id) => !existing.some((v) => v.id === id));
      if (unknown.length)
        throw new InfraError('INVALID_REQUEST', `VNFCs ${unknown.join(', ')} are not in the instance.`);
      const gone = new Set(plan.remove);
      const vnfcs = existing.filter((v) => !gone.has(v.id));
      const known = new Set(existing.map((v) => v.id));
      for (const v of plan.add)
        if (!known.has(v.id)) vnfcs.push(await newVnfcSpec(scope, flavour, ctx.grant, v));
      return {
        flavour,
        networks: networksOf(current),
        vnfcs,
        params: { ...params, scaleStatus: plan.scaleStatus },
      };
    });
  }

  heal(ctx: OperationContext, plan: HealPlan): Promise<DriverResult> {
    return this.#reshape(ctx, async (scope, stored) => {
      const { params, current } = this.#stored(ctx, stored);
      const vnfcs = await currentVnfcSpecs(scope, current);
      const unknown = plan.vnfcs.filter((id) => !vnfcs.some((v) => v.id === id));
      if (unknown.length)
        throw new InfraError('INVALID_REQUEST', `VNFCs ${unknown.join(', ')} are not in the instance.`);
      const healed = new Set(plan.vnfcs);
      for (const v of vnfcs) {
        if (!healed.has(v.id)) continue;
        v.replaceServer = true;
        v.zone = zoneName(ctx, v.id) ?? v.zone;
        if (plan.includeStorage) for (const s of v.storages) s.replace = true;
      }
      return { flavour: flavourOf(ctx.vnfd, ctx.flavourId), networks: networksOf(current), vnfcs, params };
    });
  }

  changeFlavour(ctx: OperationContext, plan: ChangeFlavourPlan): Promise<DriverResult> {
    return this.#reshape(ctx, async (scope, stored) => {
      const { params, current } = this.#stored(ctx, stored);
      const flavour = flavourOf(ctx.vnfd, plan.newFlavourId);
      const zones = new Map((current.vnfcResourceInfo ?? []).map((v) => [v.id, v.zoneId]));
      const vnfcs: VnfcSpec[] = [];
      for (const v of plan.target.vnfcs) {
        const spec = await newVnfcSpec(scope, flavour, ctx.grant, v);
        if (!spec.zone && zones.get(v.id)) spec.zone = zones.get(v.id);
        vnfcs.push(spec);
      }
      const target = plan.target;
      return {
        flavour,
        networks: target.virtualLinks,
        vnfcs,
        params: {
          ...params,
          flavourId: plan.newFlavourId,
          ...(plan.instantiationLevelId ? { instantiationLevelId: plan.instantiationLevelId } : {}),
          scaleStatus: target.scaleStatus,
          maxScaleLevels: target.maxScaleLevels,
          extVirtualLinks: target.extVirtualLinks.length ? target.extVirtualLinks : params.extVirtualLinks,
          extManagedVirtualLinks: target.extManagedVirtualLinks.length
            ? target.extManagedVirtualLinks
            : params.extManagedVirtualLinks,
        },
      };
    });
  }

  changeExtConn(ctx: OperationContext, plan: ChangeExtConnPlan): Promise<DriverResult> {
    return this.#reshape(ctx, async (scope, stored) => {
      const { params, current } = this.#stored(ctx, stored);
      return {
        flavour: flavourOf(ctx.vnfd, ctx.flavourId),
        networks: networksOf(current),
        vnfcs: await currentVnfcSpecs(scope, current),
        params: {
          ...params,
          extVirtualLinks: mergeExtVirtualLinks(params.extVirtualLinks, plan.extVirtualLinks),
        },
      };
    });
  }

  changeVnfpkg(ctx: OperationContext, plan: ChangeVnfpkgPlan): Promise<DriverResult> {
    return this.#reshape(ctx, async (scope, stored) => {
      const { params, current } = this.#stored(ctx, stored);
      const flavour = flavourOf(plan.vnfd, ctx.flavourId);
      const vnfcs = await currentVnfcSpecs(scope, current);
      const unknown = plan.vnfcs.filter((id) => !vnfcs.some((v) => v.id === id));
      if (unknown.length)
        throw new InfraError('INVALID_REQUEST', `VNFCs ${unknown.join(', ')} are not in the instance.`);
      const changed = new Set(plan.vnfcs);
      for (const v of vnfcs) {
        if (!changed.has(v.id)) continue;
        const vdu = findVdu(flavour, v.vduId);
        v.flavor = await flavorFor(this.#db.kysely, vdu, ctx.grant.computeFlavours[v.vduId]);
        v.imageId = await resolveImage(scope, ctx.grant, flavour, vdu.swImage);
        for (const s of v.storages) {
          const storage = flavour.storages.find((x) => x.id === s.descId);
          if (storage) s.imageId = await resolveImage(scope, ctx.grant, flavour, storage.swImage);
        }
      }
      return { flavour, networks: networksOf(current), vnfcs, params: { ...params, vnfdId: plan.vnfdId } };
    });
  }

  async operate(ctx: OperationContext, plan: OperatePlan): Promise<DriverResult> {
    await ensureTopology(this.#db, this.#sim);
    const scope = this.#scope(ctx, true);
    await forgetOtherOpOccs(scope);
    const state = await loadState(this.#db.kysely, ctx.instanceId);
    this.#stored(ctx, state.params);
    const servers = currentServers(state);
    const ids = plan.vnfcs.length ? plan.vnfcs : [...servers.keys()];
    const unknown = ids.filter((id) => !servers.has(id));
    if (unknown.length)
      throw new InfraError('INVALID_REQUEST', `VNFCs ${unknown.join(', ')} are not in the instance.`);
    const start = plan.changeStateTo === 'STARTED';
    const targets = ids
      .map((id) => servers.get(id)!)
      .filter((s) => s.power !== (start ? 'on' : 'off') || s.status === (start ? 'SHUTOFF' : 'ACTIVE'));
    if (!start && plan.stopType === 'GRACEFUL' && targets.some((s) => s.status === 'ACTIVE')) {
      await wait(Math.min((plan.gracefulStopTimeout ?? 0) * 1000, this.#sim.gracefulWaitCapMs), ctx.signal);
    }
    for (const s of targets) {
      await vimCall(scope, start ? 'server.start' : 'server.stop', async (j) => {
        const row = await j.trx
          .selectFrom('sim_servers')
          .selectAll()
          .where('id', '=', s.id)
          .executeTakeFirstOrThrow();
        const host = await j.trx
          .selectFrom('sim_hosts')
          .select('state')
          .where('name', '=', row.host)
          .executeTakeFirst();
        if (row.status === 'ERROR' || host?.state === 'down') {
          throw new InfraError(
            'VIM_OPERATION_FAILED',
            `Cannot '${start ? 'start' : 'stop'}' instance ${row.id} while it is in vm_state error.`,
            { server: row.id, vnfcId: row.vnfc_id },
          );
        }
        await j.update('sim_servers', row.id, {
          power: start ? 'on' : 'off',
          status: start ? 'ACTIVE' : 'SHUTOFF',
        });
      });
    }
    return this.#result(ctx);
  }

  async rollback(ctx: OperationContext, operation: RollbackableOperation): Promise<DriverResult> {
    if (!this.rollbackable.includes(operation)) {
      throw new InfraError('INVALID_REQUEST', `Rollback of ${operation} is not supported.`);
    }
    await ensureTopology(this.#db, this.#sim);
    const scope = this.#scope(ctx, false);
    const before = await this.#derive(ctx);
    await replayJournal(scope, ctx.opOccId);
    const after = await this.#derive(ctx);
    return { changes: resourceChanges(before, after), instantiatedVnfInfo: after };
  }

  async health(_vim: VimConnection, _instanceId: string, info: InstantiatedVnfInfo): Promise<VnfcHealth[]> {
    return vnfcHealth(this.#db.kysely, info);
  }

  async zones(_vim: VimConnection): Promise<string[]> {
    await ensureTopology(this.#db, this.#sim);
    const rows = await this.#db.kysely
      .selectFrom('sim_zones')
      .innerJoin('sim_hosts', 'sim_hosts.zone', 'sim_zones.name')
      .select('sim_zones.name')
      .where('sim_hosts.state', '=', 'up')
      .groupBy('sim_zones.name')
      .orderBy('sim_zones.name')
      .execute();
    return rows.map((r) => r.name);
  }
}

export function createSimDriver(options: SimDriverOptions): SimDriver {
  return new SimDriver(options);
}
