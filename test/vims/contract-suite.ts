/**
 * The infra-driver contract suite: every InfraDriver (sim, OpenStack, Kubernetes) runs it
 * against its VIM. A target gives the driver, a VIM connection, ways to make the VIM fail, and
 * a view of the VIM resources tagged with an instance. Plans come from real VNFDs (plans.ts).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, test as nodeTest, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { InstantiatedVnfInfo } from '../../src/sol/instance-model.ts';
import {
  type DriverResult,
  type GrantedResources,
  type InfraDriver,
  InfraError,
  type InstantiatePlan,
  type OperationContext,
  type VimConnection,
} from '../../src/vims/contract.ts';
import type { Vnfd } from '../../src/vnfd/model/vnfd.ts';
import { EXT_CP, extCpVnfd } from '../lcm/ext-cp-nodes.ts';
import { twoAspectsVnfd } from '../lcm/two-aspects.ts';
import { assertConsistent } from './consistency.ts';
import { lifecycleWalk, type WalkSupport } from './contract-walk.ts';
import {
  grantFor as bareGrantFor,
  instantiatePlan as barePlan,
  context,
  extVirtualLinks,
  flavourOf,
  MAIN_SAMPLE,
  newVnfc,
  PKG_FROM,
  PKG_TO,
  sampleVnfd,
  TWO_FLAVOURS,
} from './plans.ts';

/** A VIM resource tagged with an instance, as the target's VIM reports it. */
export interface TaggedResource {
  type: string;
  id: string;
  opOccId?: string;
}

export interface ContractTarget {
  driver: InfraDriver;
  vim: VimConnection;
  /** Two availability zones of the VIM a grant may name. */
  zones: [string, string];
  faults: {
    /** The next `count` creations of a compute resource fail; resolves to the VIM's message. */
    failCompute(count: number): Promise<string>;
    /** The next `count` removals of a compute resource fail; resolves to the VIM's message. */
    failComputeRemoval(count: number): Promise<string>;
    /** The next creation of a compute resource blocks until the operation is cancelled. */
    hangCompute(): Promise<void>;
    /** No compute resource can be placed in `zone` any more. */
    exhaustZone(zone: string): Promise<void>;
    restoreZone(zone: string): Promise<void>;
    /** The compute resource fails (crashes); health must report it. */
    breakCompute(resourceId: string): Promise<void>;
    clear(): Promise<void>;
  };
  /** Every VIM resource tagged with the instance. */
  resources(instanceId: string): Promise<TaggedResource[]>;
  close(): Promise<void>;
  /** The words of the VIM's error when a zone has no room (default: Nova's "No valid host was found"). */
  noRoomMessage?: string;
  /** The sample package the suite works from (default MAIN_SAMPLE). */
  sample?: string;
  /**
   * The VDUs the target's requests realise (default: all of the flavour's). A Kubernetes
   * request's manifests realise the VDUs they hold; the others get no VNFCs, as in Tacker.
   */
  vdus?: string[];
  /** VIM assets every grant names (a real cloud needs an image and flavour for VDUs without one). */
  assets?: Pick<GrantedResources, 'softwareImages' | 'computeFlavours'>;
  /** A network of the VIM external VLs use (default: a made-up id, which the simulated VIM accepts). */
  extNetwork?: string;
  /** Removes what a test's instances left (a shared real cloud has no room for every test's). */
  cleanup?(instanceIds: string[]): Promise<void>;
  /**
   * What every operation's context carries besides the plan (a Kubernetes VIM needs the request's
   * additionalParams naming the manifests, and the package they are read from), for an instance
   * (a Kubernetes instance needs a namespace of its own: two in one would share their objects).
   */
  contextFields?: Partial<OperationContext> | ((instanceId: string) => Partial<OperationContext>);
  /** What the walk through every operation on one instance needs (scope `lifecycleWalk`). */
  walk?: WalkSupport;
  /**
   * The change of package the suite makes (default PKG_FROM → PKG_TO, VDU1 moving to a new
   * image), with what each side's operations carry besides the plan (a Kubernetes VIM reads the
   * manifests of each package).
   */
  packageChange?: {
    from: string;
    to: string;
    fromFields?: Partial<OperationContext>;
    toFields?: Partial<OperationContext>;
  };
}

/** What a driver does beyond instantiate and terminate, and the faults its VIM can be made to have. */
export interface SuiteScope {
  /** Per test (a real cloud takes its time; the default is the runner's). */
  timeoutMs?: number;
  /** grantServerGroups: groups the grant makes of any VNFCs, whatever the VNFD's rules. */
  operations: ReadonlySet<
    | 'vnfExtCp'
    | 'scale'
    | 'heal'
    | 'operate'
    | 'changeExtConn'
    | 'changeFlavour'
    | 'changeVnfpkg'
    | 'grantServerGroups'
  >;
  faults: ReadonlySet<keyof ContractTarget['faults']>;
  /**
   * false: the VIM's own scheduler places compute resources, whatever zone the grant names
   * (Kubernetes, as Tacker's driver does); instantiate does not check the granted zone.
   */
  placesInGrantedZone?: boolean;
  /**
   * Every operation and its rollback walked through on one instance, the VIM checked after each
   * step (contract-walk.ts): for VIMs where instances are too dear for one test per operation.
   */
  lifecycleWalk?: boolean;
  /**
   * false: a change of package (or its rollback) replaces the compute resources instead of
   * rebuilding them in place (a Deployment's rollout makes new pods): a rollback restores the
   * VNFCs, their VDUs and images, and the instance's state, not the compute resources' ids.
   */
  rebuildsInPlace?: boolean;
  /**
   * The multi-aspect scale test's sample (two aspects, VDU1 and VDU2 servers) is for VIMs
   * running the VM samples; false where the VIM runs only container packages.
   */
  runsVmSamples?: boolean;
}

/** Everything: the simulated VIM's scope. */
export const FULL_SCOPE: SuiteScope = {
  operations: new Set([
    'vnfExtCp',
    'scale',
    'heal',
    'operate',
    'changeExtConn',
    'changeFlavour',
    'changeVnfpkg',
    'grantServerGroups',
  ]),
  faults: new Set([
    'failCompute',
    'failComputeRemoval',
    'hangCompute',
    'exhaustZone',
    'restoreZone',
    'breakCompute',
    'clear',
  ]),
};

const ids = (r: TaggedResource[]) => r.map((x) => `${x.type}:${x.id}`).sort();
const changed = (result: DriverResult, type: string) =>
  result.changes.affectedVnfcs.filter((v) => v.changeType === type);

async function rejects(
  work: Promise<unknown>,
  code: InfraError['code'],
  message?: string | RegExp,
): Promise<InfraError> {
  try {
    await work;
  } catch (err) {
    assert.ok(err instanceof InfraError, `an InfraError, got ${err}`);
    assert.equal(err.code, code, err.message);
    if (typeof message === 'string')
      assert.ok(err.message.includes(message), `"${err.message}" includes "${message}"`);
    else if (message) assert.match(err.message, message);
    return err;
  }
  assert.fail(`expected an InfraError ${code}`);
}

export function infraContractSuite(
  name: string,
  createTarget: () => Promise<ContractTarget>,
  scope: SuiteScope = FULL_SCOPE,
): void {
  describe(`infra driver contract: ${name}`, () => {
    let t: ContractTarget;
    let vnfd: Vnfd;
    before(async () => {
      t = await createTarget();
      vnfd = await sampleVnfd(t.sample ?? MAIN_SAMPLE);
    });
    after(() => t.close());
    /** Instances the running test created. */
    const created: string[] = [];
    afterEach(async () => {
      await t.cleanup?.(created.splice(0));
    });
    const test = (title: string, fn: (c: TestContext) => Promise<void>) =>
      nodeTest(title, { timeout: scope.timeoutMs }, fn);
    /** Tests of operations the driver does not have, or of faults its VIM cannot have, are not part of its contract run. */
    const testIf = (
      operation: Parameters<SuiteScope['operations']['has']>[0],
      ...faults: (keyof ContractTarget['faults'])[]
    ) =>
      scope.operations.has(operation) && faults.every((f) => scope.faults.has(f)) ? test : () => undefined;

    /** Grants name the target's assets. */
    const grantFor = (vnfcIds: string[], zone?: string): GrantedResources => ({
      ...bareGrantFor(vnfcIds, zone),
      ...t.assets,
    });
    /** Plans have VNFCs of the VDUs the target realises, and put external VLs on the target's network. */
    const instantiatePlan = (model: Vnfd, flavourId?: string, levelId?: string): InstantiatePlan => {
      const bare = barePlan(model, flavourId, levelId);
      const realised = t.vdus;
      const plan = realised ? { ...bare, vnfcs: bare.vnfcs.filter((v) => realised.includes(v.vduId)) } : bare;
      if (!t.extNetwork) return plan;
      const network = t.extNetwork;
      return { ...plan, extVirtualLinks: plan.extVirtualLinks.map((e) => ({ ...e, resourceId: network })) };
    };

    const flavour = () => flavourOf(vnfd);
    /** The target's context fields for an instance, with `more` on top (additionalParams merged). */
    const fieldsFor = (instanceId: string, ...more: (Partial<OperationContext> | undefined)[]) => {
      const base = typeof t.contextFields === 'function' ? t.contextFields(instanceId) : t.contextFields;
      const out: Partial<OperationContext> = {};
      for (const f of [base, ...more]) {
        if (!f) continue;
        const params = out.additionalParams || f.additionalParams;
        Object.assign(out, f);
        if (params) out.additionalParams = { ...params, ...f.additionalParams };
      }
      return out;
    };
    /** The sample's aspect scaling VDU1: its id, the levels a scale out goes up (two, or its top), VNFCs per level. */
    const vdu1Aspect = () => {
      const aspect = flavour().scalingAspects.find((a) => a.vduDeltas.VDU1);
      assert.ok(aspect, 'the sample scales VDU1');
      const [step] = aspect.stepDeltas;
      return {
        aspectId: aspect.id,
        levels: Math.min(2, aspect.maxScaleLevel),
        perLevel: aspect.vduDeltas.VDU1[step] ?? 1,
      };
    };

    /** A new instance's first op occ context for `plan` (nothing created yet), granted `zone`. */
    function prepared(
      plan: InstantiatePlan,
      model = vnfd,
      zone = t.zones[0],
      fields: Partial<OperationContext> = {},
    ) {
      const instanceId = randomUUID();
      created.push(instanceId);
      const grant = grantFor(
        plan.vnfcs.map((v) => v.id),
        zone,
      );
      return {
        instanceId,
        plan,
        ctx: context(t.vim, model, { instanceId, grant, ...fieldsFor(instanceId, fields) }),
      };
    }

    /** A new instance instantiated from `plan` (the main sample's by default) in zone 0. */
    async function instantiated(
      plan: InstantiatePlan = instantiatePlan(vnfd),
      model = vnfd,
      fields: Partial<OperationContext> = {},
    ) {
      const { instanceId, ctx } = prepared(plan, model, t.zones[0], fields);
      const result = await t.driver.instantiate(ctx, plan);
      assert.ok(result.instantiatedVnfInfo);
      return { instanceId, plan, ctx, result, info: result.instantiatedVnfInfo };
    }

    const next = (instanceId: string, current: InstantiatedVnfInfo, fields: Partial<OperationContext> = {}) =>
      context(t.vim, vnfd, { instanceId, current, ...fieldsFor(instanceId, fields) });

    /**
     * A rollback gave back `info`: all of it where compute resources are rebuilt in place; else
     * (new pods) the same VNFCs of the same VDUs on the same images, and the same instance state.
     */
    const assertRestored = (actual: InstantiatedVnfInfo | undefined, info: InstantiatedVnfInfo) => {
      if (scope.rebuildsInPlace !== false) return assert.deepEqual(actual, info);
      const vnfcs = (i: InstantiatedVnfInfo | undefined) =>
        (i?.vnfcResourceInfo ?? []).map((v) => [v.id, v.vduId, v.metadata?.image]);
      assert.deepEqual(vnfcs(actual), vnfcs(info));
      const { vnfcResourceInfo: _a, vnfcInfo: _b, ...rest } = info;
      const { vnfcResourceInfo: _c, vnfcInfo: _d, ...restActual } = actual ?? ({} as InstantiatedVnfInfo);
      assert.deepEqual(restActual, rest);
      assert.deepEqual(
        actual?.vnfcInfo?.map((v) => [v.id, v.vduId, v.vnfcResourceInfoId]),
        info.vnfcInfo?.map((v) => [v.id, v.vduId, v.vnfcResourceInfoId]),
      );
    };

    if (scope.lifecycleWalk) {
      test('every operation and its rollback: the VIM holds what each step reports', async (c) => {
        const support = t.walk;
        assert.ok(support, 'the target gives what the walk needs');
        await lifecycleWalk({
          driver: t.driver,
          vim: t.vim,
          vnfd,
          support,
          resources: async (instanceId) => ids(await t.resources(instanceId)),
          grantFor: (vnfcIds) => grantFor(vnfcIds, t.zones[0]),
          plan: (model, flavourId) => instantiatePlan(model, flavourId),
          created: (instanceId) => void created.push(instanceId),
          progress: (message) => c.diagnostic(`${new Date().toISOString()} ${message}`),
        });
      });
    }

    // One instance for the three checks: an instance is dear on a real cloud.
    test('instantiate creates what the plan asks, in the granted zone, tagged, consistent; again with the same op occ it changes nothing; a rollback the driver cannot do is refused', async () => {
      const { instanceId, plan, ctx, result, info } = await instantiated();
      assertConsistent(info, flavour());
      assert.equal(info.vnfState, 'STARTED');
      assert.deepEqual(info.scaleStatus, plan.scaleStatus);
      assert.deepEqual(info.maxScaleLevels, plan.maxScaleLevels);
      assert.deepEqual(
        (info.vnfcResourceInfo ?? []).map((v) => v.id).sort(),
        plan.vnfcs.map((v) => v.id).sort(),
      );
      for (const v of info.vnfcResourceInfo ?? []) {
        if (scope.placesInGrantedZone !== false) assert.equal(v.zoneId, t.zones[0]);
        const wanted = plan.vnfcs.find((n) => n.id === v.id);
        assert.deepEqual(
          (v.vnfcCpInfo ?? []).map((c) => c.cpdId),
          wanted?.cps,
        );
        assert.equal(v.storageResourceIds?.length ?? 0, wanted?.storages.length);
      }
      assert.deepEqual(
        (info.vnfVirtualLinkResourceInfo ?? []).map((l) => l.vnfVirtualLinkDescId).sort(),
        [...plan.virtualLinks].sort(),
      );
      const extCpds = plan.extVirtualLinks.flatMap((e) =>
        (e.extCps as { cpdId: string }[]).map((c) => c.cpdId),
      );
      const extCount = plan.vnfcs.reduce((n, v) => n + v.cps.filter((c) => extCpds.includes(c)).length, 0);
      assert.equal(info.extCpInfo.length, extCount);
      assert.equal(
        info.extVirtualLinkInfo?.[0].resourceHandle.resourceId,
        plan.extVirtualLinks[0]?.resourceId,
      );
      // Every change is an addition.
      assert.equal(changed(result, 'ADDED').length, plan.vnfcs.length);
      assert.equal(result.changes.affectedVnfcs.length, plan.vnfcs.length);
      assert.ok(result.changes.affectedVirtualLinks.every((l) => l.changeType === 'ADDED'));
      assert.equal(result.changes.affectedVirtualStorages.length, info.virtualStorageResourceInfo?.length);
      assert.equal(result.changes.affectedExtLinkPorts.length, extCount);
      // Every VIM resource carries the op occ that created it.
      const resources = await t.resources(instanceId);
      assert.ok(resources.length > plan.vnfcs.length);
      assert.ok(resources.every((r) => r.opOccId === ctx.opOccId));

      // Again with the same op occ: nothing changes, the same result.
      const again = await t.driver.instantiate(ctx, plan);
      assert.deepEqual(ids(await t.resources(instanceId)), ids(resources));
      assert.deepEqual(again, result);

      // Rollback of an operation the driver cannot roll back.
      assert.ok(t.driver.rollbackable.includes('INSTANTIATE'));
      if (scope.operations.has('scale')) assert.ok(t.driver.rollbackable.includes('SCALE_OUT'));
      await rejects(
        t.driver.rollback(next(instanceId, info), 'HEAL' as never),
        'INVALID_REQUEST',
        'Rollback of HEAL is not supported',
      );
    });

    /**
     * Instantiate meets a VIM that fails (a compute error, no room in the granted zone, a call
     * that blocks until cancelled): the driver reports the VIM's own error, and what follows —
     * a retry with the same op occ, or a rollback — ends with what the plan asks, or nothing.
     */
    interface FailedInstantiate {
      name: string;
      /** The faults the scenario makes the VIM have. */
      needs: (keyof ContractTarget['faults'])[];
      /** Granted zone (index in t.zones). */
      zone: 0 | 1;
      /** Makes the VIM fail; resolves to the message the error must carry, if any. */
      fault(): Promise<string | undefined>;
      /** Undoes the fault. */
      heal(): Promise<void>;
      code: InfraError['code'];
      /** Aborts the operation once it is blocked (cancel). */
      cancel?: boolean;
      /** What follows the failure (retry or rollback), and its checks. */
      recover(run: ReturnType<typeof prepared>, err: InfraError): Promise<void>;
    }

    const retried = async ({ instanceId, ctx, plan }: ReturnType<typeof prepared>) => {
      const result = await t.driver.instantiate({ ...ctx, signal: new AbortController().signal }, plan);
      const info = result.instantiatedVnfInfo as InstantiatedVnfInfo;
      assertConsistent(info, flavour());
      assert.equal(info.vnfcResourceInfo?.length, plan.vnfcs.length);
      assert.equal(changed(result, 'ADDED').length, plan.vnfcs.length);
      // A fresh instantiate of the same plan has exactly as many resources: nothing duplicated.
      const fresh = await instantiated();
      assert.equal((await t.resources(instanceId)).length, (await t.resources(fresh.instanceId)).length);
      return info;
    };

    const noRoom = () => t.noRoomMessage ?? 'No valid host was found';
    const FAILED_INSTANTIATES: FailedInstantiate[] = [
      {
        name: 'a VIM failure is reported with its message; a retry resumes without duplicates',
        needs: ['failCompute', 'clear'],
        zone: 0,
        fault: () => t.faults.failCompute(1),
        heal: () => t.faults.clear(),
        code: 'VIM_OPERATION_FAILED',
        async recover(run) {
          assert.ok(
            (await t.resources(run.instanceId)).length > 0,
            'what was created before the failure stays',
          );
          await retried(run);
        },
      },
      {
        name: 'rollback of a half-done instantiate leaves nothing behind, idempotently',
        needs: ['failCompute', 'clear'],
        zone: 0,
        fault: () => t.faults.failCompute(1),
        heal: () => t.faults.clear(),
        code: 'VIM_OPERATION_FAILED',
        async recover({ instanceId, ctx }) {
          assert.ok((await t.resources(instanceId)).length > 0);
          const rolledBack = await t.driver.rollback(ctx, 'INSTANTIATE');
          assert.equal(rolledBack.instantiatedVnfInfo, undefined);
          assert.deepEqual(await t.resources(instanceId), []);
          await t.driver.rollback(ctx, 'INSTANTIATE');
          assert.deepEqual(await t.resources(instanceId), []);
        },
      },
      {
        name: 'no room in the granted zone: NO_VALID_HOST with the VIM message; placed there once there is',
        needs: ['exhaustZone', 'restoreZone'],
        zone: 1,
        fault: async () => {
          await t.faults.exhaustZone(t.zones[1]);
          return noRoom();
        },
        heal: () => t.faults.restoreZone(t.zones[1]),
        code: 'NO_VALID_HOST',
        async recover(run, err) {
          // What the engine needs to choose another zone: the VNFC, its VDU, the zone, the reason.
          // A VIM whose scheduler places compute resources itself names no zone.
          if (scope.placesInGrantedZone !== false) assert.equal(err.detail?.zone, t.zones[1]);
          const failing = run.plan.vnfcs.find((v) => v.id === err.detail?.vnfcId);
          assert.ok(failing, `detail.vnfcId names a VNFC of the plan: ${JSON.stringify(err.detail)}`);
          assert.equal(err.detail?.vduId, failing.vduId);
          assert.ok(
            String(err.detail?.reason).includes(noRoom()),
            `${err.detail?.reason} includes ${noRoom()}`,
          );
          const info = await retried(run);
          if (scope.placesInGrantedZone !== false)
            assert.ok(info.vnfcResourceInfo?.every((v) => v.zoneId === t.zones[1]));
        },
      },
      {
        name: 'cancel: a blocked VIM call gives up with CANCELLED; a retry completes',
        needs: ['hangCompute', 'clear'],
        zone: 0,
        fault: async () => {
          await t.faults.hangCompute();
          return undefined;
        },
        heal: () => t.faults.clear(),
        code: 'CANCELLED',
        cancel: true,
        recover: async (run) => void (await retried(run)),
      },
    ];

    for (const scenario of FAILED_INSTANTIATES.filter((f) => f.needs.every((n) => scope.faults.has(n)))) {
      test(scenario.name, async () => {
        const abort = new AbortController();
        const run = prepared(instantiatePlan(vnfd), vnfd, t.zones[scenario.zone], { signal: abort.signal });
        let err: InfraError;
        try {
          const message = await scenario.fault();
          const running = t.driver.instantiate(run.ctx, run.plan);
          if (scenario.cancel) {
            await sleep(50);
            abort.abort();
          }
          err = await rejects(running, scenario.code, message);
        } finally {
          await scenario.heal();
        }
        await scenario.recover(run, err);
      });
    }

    testIf('vnfExtCp')(
      'a VnfExtCp node on an external VL gets a port of the VNF; rollback and terminate remove it',
      async () => {
        const withExtCp = await extCpVnfd();
        const plan = instantiatePlan(withExtCp);
        const [link] = plan.extVirtualLinks;
        plan.extVirtualLinks = [{ ...link, extCps: [...(link.extCps as unknown[]), { cpdId: EXT_CP }] }];
        const { instanceId, ctx, info } = await instantiated(plan, withExtCp);
        assertConsistent(info, flavourOf(withExtCp));
        const own = info.extCpInfo.filter((c) => c.cpdId === EXT_CP);
        assert.equal(own.length, 1);
        assert.ok(
          info.extVirtualLinkInfo?.[0].extLinkPorts?.some((p) => p.cpInstanceId === own[0].id),
          'its port is on the external VL',
        );
        assert.ok((await t.resources(instanceId)).some((r) => r.id === own[0].id));
        await t.driver.rollback(ctx, 'INSTANTIATE');
        assert.deepEqual(await t.resources(instanceId), []);
        const again = await t.driver.instantiate({ ...ctx, opOccId: randomUUID() }, plan);
        await t.driver.terminate(next(instanceId, again.instantiatedVnfInfo as InstantiatedVnfInfo), {
          terminationType: 'FORCEFUL',
        });
        assert.deepEqual(await t.resources(instanceId), []);
      },
    );

    testIf('scale')('scale out adds VNFCs; its rollback removes exactly what it added', async () => {
      const { instanceId, info } = await instantiated();
      const before = ids(await t.resources(instanceId));
      // VDU1's aspect from level 0 up two levels (or to its top, if lower).
      const { aspectId, levels, perLevel } = vdu1Aspect();
      const add = Array.from({ length: levels * perLevel }, () => newVnfc(flavour(), 'VDU1'));
      const ctx = next(instanceId, info, {
        grant: grantFor(
          add.map((v) => v.id),
          t.zones[0],
        ),
      });
      const result = await t.driver.scale(ctx, {
        aspects: [{ aspectId, fromLevel: 0, toLevel: levels }],
        add,
        remove: [],
        scaleStatus: [{ aspectId, scaleLevel: levels }],
      });
      const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
      assertConsistent(out, flavour());
      assert.deepEqual(out.scaleStatus, [{ aspectId, scaleLevel: levels }]);
      assert.deepEqual(
        changed(result, 'ADDED')
          .map((v) => v.id)
          .sort(),
        add.map((v) => v.id).sort(),
      );
      assert.equal(result.changes.affectedVnfcs.length, add.length);
      assert.ok(result.changes.affectedVirtualLinks.every((l) => l.changeType === 'LINK_PORT_ADDED'));
      // Newest first.
      assert.ok(add.some((a) => a.id === out.vnfcResourceInfo?.[0].id));
      const added = (await t.resources(instanceId)).filter((r) => r.opOccId === ctx.opOccId);
      assert.ok(added.length >= add.length);
      const rolledBack = await t.driver.rollback(ctx, 'SCALE_OUT');
      assert.deepEqual(rolledBack.instantiatedVnfInfo, info);
      assert.deepEqual(ids(await t.resources(instanceId)), before);
      assert.deepEqual(
        rolledBack.changes.affectedVnfcs.map((v) => [v.id, v.changeType]).sort(),
        add.map((v) => [v.id, 'REMOVED']).sort(),
      );
    });

    testIf('scale')('scale in removes the VNFCs named, their ports and volumes', async () => {
      const { instanceId, info } = await instantiated(
        instantiatePlan(vnfd, 'simple', 'instantiation_level_2'),
      );
      const vdu1 = (info.vnfcResourceInfo ?? []).filter((v) => v.vduId === 'VDU1');
      assert.equal(vdu1.length, 3);
      const remove = [vdu1[0].id];
      const { aspectId } = vdu1Aspect();
      const level = info.scaleStatus?.find((a) => a.aspectId === aspectId)?.scaleLevel ?? 0;
      assert.ok(level > 0);
      const result = await t.driver.scale(next(instanceId, info), {
        aspects: [{ aspectId, fromLevel: level, toLevel: level - 1 }],
        add: [],
        remove,
        scaleStatus: [{ aspectId, scaleLevel: level - 1 }],
      });
      const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
      assertConsistent(out, flavour());
      assert.deepEqual(
        result.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
        [[remove[0], 'REMOVED']],
      );
      // Its volumes go with it.
      assert.deepEqual(
        result.changes.affectedVirtualStorages.map((s) => [s.id, s.changeType]),
        (vdu1[0].storageResourceIds ?? []).map((id) => [id, 'REMOVED']),
      );
      assert.ok(result.changes.affectedVirtualLinks.every((l) => l.changeType === 'LINK_PORT_REMOVED'));
      assert.ok(result.changes.affectedExtLinkPorts.every((p) => p.changeType === 'REMOVED'));
      const left = await t.resources(instanceId);
      assert.ok(!left.some((r) => r.id === vdu1[0].computeResource.resourceId));
    });

    (scope.runsVmSamples === false ? () => undefined : testIf('scale'))(
      'a scale moving several aspects, in and out, is one operation: a retry resumes it whole',
      async () => {
        const two = await twoAspectsVnfd();
        const flavourTwo = flavourOf(two);
        // VDU1_scale at 2 (three VDU1s), VDU2_scale at 0 (one VDU2).
        const level2 = instantiatePlan(two, 'simple', 'instantiation_level_2');
        let vdu2s = 0;
        const plan = {
          ...level2,
          vnfcs: level2.vnfcs.filter((v) => v.vduId !== 'VDU2' || vdu2s++ === 0),
          scaleStatus: [
            { aspectId: 'VDU1_scale', scaleLevel: 2 },
            { aspectId: 'VDU2_scale', scaleLevel: 0 },
          ],
        };
        const { instanceId, info } = await instantiated(plan, two);
        const vdu1 = (info.vnfcResourceInfo ?? []).filter((v) => v.vduId === 'VDU1');
        assert.equal(vdu1.length, 3);
        // VDU1_scale 2 → 0 removes two VDU1s, VDU2_scale 0 → 1 adds a VDU2.
        const add = [newVnfc(flavourTwo, 'VDU2')];
        const remove = vdu1.slice(0, 2).map((v) => v.id);
        const scalePlan = {
          aspects: [
            { aspectId: 'VDU1_scale', fromLevel: 2, toLevel: 0 },
            { aspectId: 'VDU2_scale', fromLevel: 0, toLevel: 1 },
          ],
          add,
          remove,
          scaleStatus: [
            { aspectId: 'VDU1_scale', scaleLevel: 0 },
            { aspectId: 'VDU2_scale', scaleLevel: 1 },
          ],
        };
        const ctx = context(t.vim, two, {
          instanceId,
          current: info,
          grant: grantFor(
            add.map((v) => v.id),
            t.zones[0],
          ),
        });
        // The new VDU2 fails after the VDU1s went: the retry adds it and reports the whole change.
        const message = await t.faults.failCompute(1);
        try {
          await rejects(t.driver.scale(ctx, scalePlan), 'VIM_OPERATION_FAILED', message);
        } finally {
          await t.faults.clear();
        }
        const result = await t.driver.scale(ctx, scalePlan);
        const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
        assertConsistent(out, flavourTwo);
        assert.deepEqual(out.scaleStatus, scalePlan.scaleStatus);
        assert.deepEqual(
          result.changes.affectedVnfcs.map((v) => [v.vduId, v.id, v.changeType]).sort(),
          [...remove.map((id) => ['VDU1', id, 'REMOVED']), ['VDU2', add[0].id, 'ADDED']].sort(),
        );
        const counts = (vduId: string) =>
          (out.vnfcResourceInfo ?? []).filter((v) => v.vduId === vduId).length;
        assert.deepEqual([counts('VDU1'), counts('VDU2')], [1, 2]);
        const left = await t.resources(instanceId);
        for (const v of vdu1.slice(0, 2)) assert.ok(!left.some((r) => r.id === v.computeResource.resourceId));
      },
    );

    testIf('heal')(
      'heal re-creates the server and keeps the VNFC, its ports and (unless asked) its volume',
      async () => {
        const { instanceId, info } = await instantiated();
        const [target, other] = info.vnfcResourceInfo ?? [];
        const result = await t.driver.heal(next(instanceId, info), {
          vnfcs: [target.id],
          includeStorage: false,
        });
        const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
        assertConsistent(out, flavour());
        const healed = out.vnfcResourceInfo?.find((v) => v.id === target.id);
        assert.ok(healed);
        assert.notEqual(healed.computeResource.resourceId, target.computeResource.resourceId);
        assert.deepEqual(healed.vnfcCpInfo, target.vnfcCpInfo, 'same CPs on the same ports');
        assert.deepEqual(healed.storageResourceIds, target.storageResourceIds);
        assert.deepEqual(
          out.vnfcResourceInfo?.find((v) => v.id === other.id),
          other,
          'the other VNFC is untouched',
        );
        assert.deepEqual(out.vnfcInfo, info.vnfcInfo, 'vnfcInfo ids survive heal');
        assert.deepEqual(
          result.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
          [[target.id, 'MODIFIED']],
        );
        assert.deepEqual(result.changes.affectedVirtualStorages, []);
        // With storage: the volume is new too.
        const again = await t.driver.heal(next(instanceId, out), {
          vnfcs: [target.id],
          includeStorage: true,
        });
        assert.deepEqual(
          again.changes.affectedVirtualStorages.map((s) => [s.id, s.changeType]),
          (target.storageResourceIds ?? []).map((id) => [id, 'MODIFIED']),
        );
      },
    );

    testIf('heal', 'failComputeRemoval')(
      'a heal that failed half-way resumes on retry without re-creating what it already did',
      async () => {
        const { instanceId, info } = await instantiated();
        const [a, b] = info.vnfcResourceInfo ?? [];
        const ctx = next(instanceId, info);
        const message = await t.faults.failComputeRemoval(1);
        try {
          await rejects(
            t.driver.heal(ctx, { vnfcs: [a.id, b.id], includeStorage: false }),
            'VIM_OPERATION_FAILED',
            message,
          );
        } finally {
          await t.faults.clear();
        }
        const during = await t.resources(instanceId);
        const result = await t.driver.heal(ctx, { vnfcs: [a.id, b.id], includeStorage: false });
        const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
        assertConsistent(out, flavour());
        const healedA = out.vnfcResourceInfo?.find((v) => v.id === a.id);
        const healedB = out.vnfcResourceInfo?.find((v) => v.id === b.id);
        // The replacement the first attempt made (before failing to remove the old one) is kept.
        const madeBefore = [healedA, healedB].filter((h) =>
          during.some((r) => r.id === h?.computeResource.resourceId),
        );
        assert.equal(madeBefore.length, 1);
        assert.notEqual(healedA?.computeResource.resourceId, a.computeResource.resourceId);
        assert.notEqual(healedB?.computeResource.resourceId, b.computeResource.resourceId);
        const computes = (await t.resources(instanceId)).filter((r) =>
          (out.vnfcResourceInfo ?? []).some((v) => v.computeResource.resourceId === r.id),
        );
        assert.equal(computes.length, out.vnfcResourceInfo?.length);
        assert.deepEqual(
          result.changes.affectedVnfcs.map((v) => [v.id, v.changeType]).sort(),
          [
            [a.id, 'MODIFIED'],
            [b.id, 'MODIFIED'],
          ].sort(),
        );
      },
    );

    testIf('heal', 'breakCompute')(
      'heal moves a VNFC off a failed compute resource; health reports the failure',
      async () => {
        const { instanceId, info } = await instantiated();
        const [broken] = info.vnfcResourceInfo ?? [];
        await t.faults.breakCompute(broken.computeResource.resourceId);
        const health = await t.driver.health(t.vim, instanceId, info);
        assert.equal(health.length, info.vnfcResourceInfo?.length);
        for (const h of health) {
          assert.equal(h.state, h.vnfcResourceInfoId === broken.id ? 'ERROR' : 'ACTIVE', JSON.stringify(h));
        }
        assert.ok(health.find((h) => h.vnfcResourceInfoId === broken.id)?.reason);
        const result = await t.driver.heal(next(instanceId, info), {
          vnfcs: [broken.id],
          includeStorage: false,
        });
        const after = await t.driver.health(
          t.vim,
          instanceId,
          result.instantiatedVnfInfo as InstantiatedVnfInfo,
        );
        assert.ok(after.every((h) => h.state === 'ACTIVE'));
      },
    );

    testIf('operate')('operate stops and starts VNFCs', async () => {
      const { instanceId, info } = await instantiated();
      const stopped = await t.driver.operate(next(instanceId, info), {
        changeStateTo: 'STOPPED',
        stopType: 'FORCEFUL',
        vnfcs: [],
      });
      const out = stopped.instantiatedVnfInfo as InstantiatedVnfInfo;
      assert.equal(out.vnfState, 'STOPPED');
      assert.ok(out.vnfcInfo?.every((v) => v.vnfcState === 'STOPPED'));
      assert.equal(stopped.changes.affectedVnfcs.length, info.vnfcResourceInfo?.length);
      assert.ok((await t.driver.health(t.vim, instanceId, out)).every((h) => h.state === 'SHUTOFF'));
      const one = out.vnfcResourceInfo?.[0].id as string;
      const started = await t.driver.operate(next(instanceId, out), {
        changeStateTo: 'STARTED',
        vnfcs: [one],
      });
      const back = started.instantiatedVnfInfo as InstantiatedVnfInfo;
      assert.equal(back.vnfcInfo?.find((v) => v.vnfcResourceInfoId === one)?.vnfcState, 'STARTED');
      assert.equal(back.vnfState, 'STARTED');
      assert.deepEqual(
        started.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
        [[one, 'MODIFIED']],
      );
    });

    testIf('changeExtConn')(
      'change external connectivity moves the external CPs; rollback puts them back',
      async () => {
        const { instanceId, info, plan } = await instantiated();
        const moved = extVirtualLinks(flavour(), `ext-net-new-${randomUUID().slice(0, 8)}`);
        const ctx = next(instanceId, info);
        const result = await t.driver.changeExtConn(ctx, { extVirtualLinks: moved });
        const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
        assertConsistent(out, flavour());
        assert.deepEqual(
          out.extVirtualLinkInfo?.map((e) => e.resourceHandle.resourceId),
          [moved[0].resourceId],
        );
        const oldPorts = (info.extVirtualLinkInfo ?? [])
          .flatMap((e) => e.extLinkPorts ?? [])
          .map((p) => p.id);
        const newPorts = (out.extVirtualLinkInfo ?? []).flatMap((e) => e.extLinkPorts ?? []).map((p) => p.id);
        assert.equal(newPorts.length, oldPorts.length);
        assert.deepEqual(
          result.changes.affectedExtLinkPorts
            .filter((p) => p.changeType === 'REMOVED')
            .map((p) => p.id)
            .sort(),
          [...oldPorts].sort(),
        );
        assert.deepEqual(
          result.changes.affectedExtLinkPorts
            .filter((p) => p.changeType === 'ADDED')
            .map((p) => p.id)
            .sort(),
          [...newPorts].sort(),
        );
        assert.ok(
          result.changes.affectedVnfcs.every(
            (v) => v.changeType === 'MODIFIED' && v.affectedVnfcCpIds?.length,
          ),
        );
        assert.equal(plan.extVirtualLinks.length, 1);
        const rolledBack = await t.driver.rollback(ctx, 'CHANGE_EXT_CONN');
        assert.deepEqual(rolledBack.instantiatedVnfInfo, info);
      },
    );

    testIf('changeFlavour')('change flavour reshapes the VNF; rollback restores it', async () => {
      const two = await sampleVnfd(TWO_FLAVOURS);
      const plan = instantiatePlan(two, 'simple');
      const { instanceId, info } = await instantiated(plan, two);
      const before = ids(await t.resources(instanceId));
      const target = instantiatePlan(two, 'volume');
      // VNFCs of VDUs both flavours have are kept (same ids); the rest comes and goes.
      const kept = [...(info.vnfcResourceInfo ?? [])];
      target.vnfcs = target.vnfcs.map((v) => {
        const same = kept.findIndex((k) => k.vduId === v.vduId);
        return same < 0 ? v : { ...v, id: kept.splice(same, 1)[0].id };
      });
      const ctx = context(t.vim, two, {
        instanceId,
        current: info,
        grant: grantFor(
          target.vnfcs.map((v) => v.id),
          t.zones[0],
        ),
      });
      const result = await t.driver.changeFlavour(ctx, { newFlavourId: 'volume', target });
      const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
      assert.equal(out.flavourId, 'volume');
      assertConsistent(out, flavourOf(two, 'volume'));
      assert.equal(out.virtualStorageResourceInfo?.length, target.vnfcs.length);
      assert.ok(result.changes.affectedVirtualStorages.every((s) => s.changeType === 'ADDED'));
      const rolledBack = await t.driver.rollback(ctx, 'CHANGE_FLAVOUR');
      assert.deepEqual(rolledBack.instantiatedVnfInfo, info);
      assert.deepEqual(ids(await t.resources(instanceId)), before);
    });

    testIf('changeVnfpkg')(
      'change current package rebuilds servers on the new images; rollback restores them',
      async () => {
        const change = t.packageChange ?? { from: PKG_FROM, to: PKG_TO };
        const from = await sampleVnfd(change.from);
        const to = await sampleVnfd(change.to);
        const plan = instantiatePlan(from);
        const { instanceId, info } = await instantiated(plan, from, change.fromFields);
        const vdu1 = (info.vnfcResourceInfo ?? []).filter((v) => v.vduId === 'VDU1');
        assert.ok(vdu1.length > 0);
        const imageBefore = new Map((info.vnfcResourceInfo ?? []).map((v) => [v.id, v.metadata?.image]));
        const ctx = context(t.vim, from, {
          instanceId,
          current: info,
          ...fieldsFor(instanceId, change.fromFields, change.toFields),
        });
        const result = await t.driver.changeVnfpkg(ctx, {
          vnfdId: to.vnf.descriptorId,
          vnfd: to,
          vnfcs: vdu1.map((v) => v.id),
        });
        const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
        assertConsistent(out, flavourOf(to));
        for (const v of out.vnfcResourceInfo ?? []) {
          if (v.vduId === 'VDU1') {
            assert.ok(v.metadata?.image, `VNFC ${v.id} runs the new image`);
            assert.notEqual(v.metadata?.image, imageBefore.get(v.id), `VNFC ${v.id} runs the new image`);
          } else assert.equal(v.metadata?.image, imageBefore.get(v.id));
        }
        assert.deepEqual(
          result.changes.affectedVnfcs.map((v) => [v.id, v.changeType]).sort(),
          vdu1.map((v) => [v.id, 'MODIFIED']).sort(),
        );
        const rolledBack = await t.driver.rollback(ctx, 'CHANGE_VNFPKG');
        assertRestored(rolledBack.instantiatedVnfInfo, info);
      },
    );

    test('terminate removes everything; forceful at once, graceful after its (capped) timeout; idempotent', async () => {
      for (const terminationType of ['FORCEFUL', 'GRACEFUL'] as const) {
        const { instanceId, info } = await instantiated();
        const ctx = next(instanceId, info);
        const result = await t.driver.terminate(ctx, { terminationType, gracefulTerminationTimeout: 1 });
        assert.equal(result.instantiatedVnfInfo, undefined);
        assert.ok(result.changes.affectedVnfcs.every((v) => v.changeType === 'REMOVED'));
        assert.equal(result.changes.affectedVnfcs.length, info.vnfcResourceInfo?.length);
        assert.ok(result.changes.affectedVirtualLinks.every((l) => l.changeType === 'REMOVED'));
        assert.deepEqual(await t.resources(instanceId), []);
        const again = await t.driver.terminate(ctx, { terminationType });
        assert.equal(again.instantiatedVnfInfo, undefined);
      }
    });

    testIf('grantServerGroups')(
      'server groups: affinity members share a host, anti-affinity members never do',
      async () => {
        for (const policy of ['affinity', 'anti-affinity'] as const) {
          const plan = instantiatePlan(vnfd);
          const { instanceId, ctx } = prepared(plan);
          const members = plan.vnfcs.map((v) => v.id);
          ctx.grant.serverGroups = [{ id: `together-${policy}`, policy, members }];
          const { instantiatedVnfInfo: info } = await t.driver.instantiate(ctx, plan);
          assert.ok(info);
          const hosts = (await t.driver.health(t.vim, instanceId, info)).map((h) => h.host);
          assert.equal(hosts.length, members.length);
          assert.ok(
            hosts.every((h) => typeof h === 'string' && h.length > 0),
            hosts.join(', '),
          );
          assert.equal(
            new Set(hosts).size,
            policy === 'affinity' ? 1 : members.length,
            `${policy}: ${hosts}`,
          );
          await t.driver.terminate(next(instanceId, info), { terminationType: 'FORCEFUL' });
          assert.deepEqual(await t.resources(instanceId), []);
        }
      },
    );

    test('zones lists where compute resources can go', async () => {
      const zones = await t.driver.zones(t.vim);
      assert.ok(zones.includes(t.zones[0]) && zones.includes(t.zones[1]), zones.join(', '));
    });
  });
}
