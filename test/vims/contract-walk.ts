/**
 * The contract suite's walk through every operation, for VIMs where an instance is dear (a real
 * cloud takes seconds per server): two instances side by side, one through instantiate and its
 * rollback, scale out and its rollback, scale to a level and back, scale in, heal of one VNFC and
 * terminate, the other through heal of the whole VNF, operate, the three changes and their
 * rollbacks and terminate. After each step the VIM holds exactly what instantiatedVnfInfo says (the target's
 * `matches`), and after each rollback nothing the rolled-back op occ created is left.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { InstantiatedVnfInfo } from '../../src/sol/instance-model.ts';
import type {
  DriverResult,
  GrantedResources,
  InfraDriver,
  InstantiatePlan,
  OperationContext,
  RollbackableOperation,
  ScalePlan,
} from '../../src/vims/contract.ts';
import type { Vnfd } from '../../src/vnfd/model/vnfd.ts';
import { context, flavourOf, newVnfc } from './plans.ts';

/** What a target gives for the walk. */
export interface WalkSupport {
  /** The VIM holds exactly what `info` says (nothing at all without one); `model` has its flavour. */
  matches(instanceId: string, info: InstantiatedVnfInfo | undefined, model: Vnfd): Promise<void>;
  /** Another network of the VIM external VLs can move to. */
  otherNetwork(): Promise<string>;
  /** Another image of the VIM servers can be rebuilt on. */
  otherImage(): Promise<string>;
  /** Compute flavours by VDU other than the assets' (a change of flavour moves to them). */
  otherFlavours: Record<string, string>;
}

export interface WalkInput {
  driver: InfraDriver;
  vim: OperationContext['vim'];
  vnfd: Vnfd;
  support: WalkSupport;
  /** Every resource the VIM has for the instance, as `type:id`. */
  resources(instanceId: string): Promise<string[]>;
  grantFor(vnfcIds: string[]): GrantedResources;
  plan(model: Vnfd, flavourId?: string): InstantiatePlan;
  /** Called with the instance's id before anything is made (clean-up). */
  created(instanceId: string): void;
  /** Says which step a walk is at (a step on a real cloud may take a minute). */
  progress(message: string): void;
}

const serverOf = (info: InstantiatedVnfInfo, id: string) =>
  info.vnfcResourceInfo?.find((v) => v.id === id)?.computeResource.resourceId;

export async function lifecycleWalk(w: WalkInput): Promise<void> {
  await Promise.all([scaleAndHeal(w), healOperateChanges(w)]);
}

/** One instance of the walk: its steps, each checked against the VIM. */
function walker(w: WalkInput, name: string) {
  const instanceId = randomUUID();
  w.created(instanceId);
  const state = { model: w.vnfd };
  const ctxFor = (current: InstantiatedVnfInfo | undefined, grant = w.grantFor([]), m = state.model) =>
    context(w.vim, m, { instanceId, ...(current ? { current } : {}), grant });

  /** Runs a step; the VIM must then hold what it reports. */
  async function step(what: string, run: () => Promise<DriverResult>): Promise<InstantiatedVnfInfo> {
    w.progress(`${name}: ${what}`);
    const result = await run();
    const info = result.instantiatedVnfInfo;
    assert.ok(info, `${what} reports instantiatedVnfInfo`);
    await w.support.matches(instanceId, info, state.model);
    return info;
  }

  /**
   * Rolls `ctx`'s operation back: the VIM holds what the rollback reports, and nothing `ctx`'s op
   * occ created before it (`before` → `during`) is left.
   */
  async function rolledBack(
    operation: RollbackableOperation,
    ctx: OperationContext,
    before: string[],
  ): Promise<InstantiatedVnfInfo> {
    const during = await w.resources(instanceId);
    const created = during.filter((r) => !before.includes(r));
    assert.ok(created.length > 0 || operation !== 'SCALE_OUT', `${operation} created something`);
    const info = await step(`rollback of ${operation}`, () => w.driver.rollback(ctx, operation));
    const left = await w.resources(instanceId);
    assert.deepEqual(
      left.filter((r) => created.includes(r)),
      [],
      `the rollback of ${operation} leaves nothing its op occ created`,
    );
    return info;
  }

  const plan = w.plan(w.vnfd);
  async function instantiate(): Promise<InstantiatedVnfInfo> {
    const ctx = ctxFor(undefined, w.grantFor(plan.vnfcs.map((v) => v.id)));
    return step('instantiate', () => w.driver.instantiate(ctx, plan));
  }

  async function terminate(info: InstantiatedVnfInfo): Promise<void> {
    w.progress(`${name}: terminate`);
    const gone = await w.driver.terminate(ctxFor(info), { terminationType: 'FORCEFUL' });
    assert.equal(gone.instantiatedVnfInfo, undefined);
    assert.deepEqual(
      gone.changes.affectedVnfcs.map((v) => [v.id, v.changeType]).sort(),
      (info.vnfcResourceInfo ?? []).map((v) => [v.id, 'REMOVED']).sort(),
    );
    await w.support.matches(instanceId, undefined, state.model);
    assert.deepEqual(await w.resources(instanceId), []);
  }

  return { instanceId, state, ctxFor, step, rolledBack, plan, instantiate, terminate };
}

async function scaleAndHeal(w: WalkInput): Promise<void> {
  const { instanceId, ctxFor, step, rolledBack, plan, terminate } = walker(w, 'scale, heal');
  const flavour = flavourOf(w.vnfd);

  // Instantiate, rolled back: nothing left; instantiated again by a new op occ.
  const first = ctxFor(undefined, w.grantFor(plan.vnfcs.map((v) => v.id)));
  await step('instantiate', () => w.driver.instantiate(first, plan));
  const undone = await w.driver.rollback(first, 'INSTANTIATE');
  assert.equal(undone.instantiatedVnfInfo, undefined);
  await w.support.matches(instanceId, undefined, w.vnfd);
  assert.deepEqual(await w.resources(instanceId), []);
  const again = { ...first, opOccId: randomUUID() };
  let info = await step('instantiate again', () => w.driver.instantiate(again, plan));
  // Scale out one step, rolled back to exactly what was there.
  const [aspect] = flavour.scalingAspects;
  assert.ok(aspect, 'the flavour has a scaling aspect');
  const [delta] = aspect.stepDeltas;
  const vdus = Object.entries(aspect.vduDeltas).flatMap(([vdu, d]) =>
    Array.from({ length: d[delta as string] ?? 0 }, () => vdu),
  );
  assert.ok(vdus.length > 0, `aspect ${aspect.id} adds VNFCs`);
  const levelOf = (i: InstantiatedVnfInfo) =>
    i.scaleStatus?.find((s) => s.aspectId === aspect.id)?.scaleLevel ?? 0;
  const scaleStatus = (level: number) =>
    (info.scaleStatus ?? []).map((s) => (s.aspectId === aspect.id ? { ...s, scaleLevel: level } : s));
  const scaleOut = (toLevel: number): ScalePlan => {
    const from = levelOf(info);
    const add = Array.from({ length: toLevel - from }, () => vdus.map((vdu) => newVnfc(flavour, vdu))).flat();
    return {
      aspects: [{ aspectId: aspect.id, fromLevel: from, toLevel }],
      add,
      remove: [],
      scaleStatus: scaleStatus(toLevel),
    };
  };
  const oneStep = scaleOut(levelOf(info) + 1);
  const outCtx = ctxFor(info, w.grantFor(oneStep.add.map((v) => v.id)));
  const before = await w.resources(instanceId);
  const out = await step('scale out', () => w.driver.scale(outCtx, oneStep));
  assert.equal(out.vnfcResourceInfo?.length, (info.vnfcResourceInfo?.length ?? 0) + oneStep.add.length);
  const retried = await step('scale out retried', () => w.driver.scale(outCtx, oneStep));
  assert.deepEqual(retried, out, 'a retry of a done scale out changes nothing');
  const back = await rolledBack('SCALE_OUT', outCtx, before);
  assert.deepEqual(back, info, 'the rollback of scale out restores the instance as it was');

  // Scale to the highest level, one step in, then to level 0.
  const toMax = scaleOut(aspect.maxScaleLevel);
  info = await step('scale to the highest level', () =>
    w.driver.scale(ctxFor(info, w.grantFor(toMax.add.map((v) => v.id))), toMax),
  );
  assert.equal(levelOf(info), aspect.maxScaleLevel);
  const newest = (count: number) =>
    (info.vnfcResourceInfo ?? []).filter((v) => toMax.add.some((a) => a.id === v.id)).slice(0, count);
  const inOne = newest(vdus.length).map((v) => v.id);
  const wasMax = info;
  info = await step('scale in', () =>
    w.driver.scale(ctxFor(info), {
      aspects: [{ aspectId: aspect.id, fromLevel: aspect.maxScaleLevel, toLevel: aspect.maxScaleLevel - 1 }],
      add: [],
      remove: inOne,
      scaleStatus: scaleStatus(aspect.maxScaleLevel - 1),
    }),
  );
  for (const id of inOne) assert.equal(serverOf(info, id), undefined, `VNFC ${id} scaled in`);
  const rest = newest(toMax.add.length).map((v) => v.id);
  assert.equal(rest.length, toMax.add.length - inOne.length);
  info = await step('scale to level 0', () =>
    w.driver.scale(ctxFor(info), {
      aspects: [{ aspectId: aspect.id, fromLevel: levelOf(info), toLevel: 0 }],
      add: [],
      remove: rest,
      scaleStatus: scaleStatus(0),
    }),
  );
  assert.equal(info.vnfcResourceInfo?.length, plan.vnfcs.length);
  for (const v of wasMax.vnfcResourceInfo ?? []) {
    if (!toMax.add.some((a) => a.id === v.id))
      assert.equal(serverOf(info, v.id), v.computeResource.resourceId, `VNFC ${v.id} kept its server`);
  }

  // Heal one VNFC: a new server on the same ports; the others untouched.
  const [target, ...others] = info.vnfcResourceInfo ?? [];
  assert.ok(target && others.length > 0);
  const healCtx = ctxFor(info);
  const healedOne = await step('heal of one VNFC', () =>
    w.driver.heal(healCtx, { vnfcs: [target.id], includeStorage: false }),
  );
  const healedAgain = await step('heal of one VNFC retried', () =>
    w.driver.heal(healCtx, { vnfcs: [target.id], includeStorage: false }),
  );
  assert.deepEqual(healedAgain, healedOne, 'a retry of a done heal replaces nothing more');
  assert.notEqual(serverOf(healedOne, target.id), target.computeResource.resourceId);
  assert.deepEqual(
    healedOne.vnfcResourceInfo?.find((v) => v.id === target.id)?.vnfcCpInfo,
    target.vnfcCpInfo,
    'the healed VNFC keeps its CPs, ports and addresses',
  );
  for (const o of others) assert.equal(serverOf(healedOne, o.id), o.computeResource.resourceId);
  info = healedOne;

  await terminate(info);
}

async function healOperateChanges(w: WalkInput): Promise<void> {
  const { instanceId, state, ctxFor, step, rolledBack, plan, instantiate, terminate } = walker(
    w,
    'heal, operate, changes',
  );
  const flavour = flavourOf(w.vnfd);
  let info = await instantiate();

  // Heal the whole VNF: every server new, every VNFC kept.
  const all = (info.vnfcResourceInfo ?? []).map((v) => v.id);
  const healedAll = await step('heal of the whole VNF', () =>
    w.driver.heal(ctxFor(info), { vnfcs: all, includeStorage: false }),
  );
  assert.deepEqual(healedAll.vnfcResourceInfo?.map((v) => v.id).sort(), [...all].sort());
  for (const v of info.vnfcResourceInfo ?? []) {
    assert.notEqual(serverOf(healedAll, v.id), v.computeResource.resourceId, `VNFC ${v.id} healed`);
  }
  assert.deepEqual(healedAll.vnfcInfo, info.vnfcInfo, 'vnfcInfo ids survive heal');
  info = healedAll;

  // Operate: stop every VNFC, start them again.
  const stopped = await step('operate: stop', () =>
    w.driver.operate(ctxFor(info), { changeStateTo: 'STOPPED', stopType: 'FORCEFUL', vnfcs: [] }),
  );
  assert.equal(stopped.vnfState, 'STOPPED');
  info = await step('operate: start', () =>
    w.driver.operate(ctxFor(stopped), { changeStateTo: 'STARTED', vnfcs: [] }),
  );
  assert.equal(info.vnfState, 'STARTED');
  assert.ok(info.vnfcInfo?.every((v) => v.vnfcState === 'STARTED'));

  // Change external connectivity, rolled back.
  const [link] = plan.extVirtualLinks;
  assert.ok(link, 'the plan has an external VL');
  const network = await w.support.otherNetwork();
  const connCtx = ctxFor(info);
  const connBefore = await w.resources(instanceId);
  const moved = await step('change external connectivity', () =>
    w.driver.changeExtConn(connCtx, { extVirtualLinks: [{ ...link, resourceId: network }] }),
  );
  assert.deepEqual(
    moved.extVirtualLinkInfo?.map((e) => e.resourceHandle.resourceId),
    [network],
  );
  info = await rolledBack('CHANGE_EXT_CONN', connCtx, connBefore);
  assert.deepEqual(
    info.extVirtualLinkInfo?.map((e) => e.resourceHandle.resourceId),
    [link.resourceId],
  );

  // Change flavour to a copy of the flavour on other compute flavours, rolled back.
  const big = { ...flavour, flavourId: 'big' };
  const two: Vnfd = { ...w.vnfd, flavours: [...w.vnfd.flavours, big] };
  const reshaped = w.plan(two, 'big');
  const kept = [...(info.vnfcResourceInfo ?? [])];
  reshaped.vnfcs = reshaped.vnfcs.map((v) => {
    const same = kept.findIndex((k) => k.vduId === v.vduId);
    return same < 0 ? v : { ...v, id: (kept.splice(same, 1)[0] as { id: string }).id };
  });
  reshaped.extVirtualLinks = plan.extVirtualLinks;
  const flavourGrant = w.grantFor(reshaped.vnfcs.map((v) => v.id));
  const flavourCtx = ctxFor(
    info,
    { ...flavourGrant, computeFlavours: { ...flavourGrant.computeFlavours, ...w.support.otherFlavours } },
    two,
  );
  state.model = two;
  const flavourBefore = await w.resources(instanceId);
  const changed = await step('change flavour', () =>
    w.driver.changeFlavour(flavourCtx, { newFlavourId: 'big', target: reshaped }),
  );
  assert.equal(changed.flavourId, 'big');
  info = await rolledBack('CHANGE_FLAVOUR', flavourCtx, flavourBefore);
  assert.equal(info.flavourId, flavour.flavourId);
  state.model = w.vnfd;

  // Change the VNF package: every VNFC rebuilt on another image, rolled back.
  const image = await w.support.otherImage();
  const images = Object.fromEntries(flavour.vdus.map((v) => [v.id, image]));
  const pkgGrant = w.grantFor([]);
  const pkgCtx = ctxFor(info, { ...pkgGrant, softwareImages: { ...pkgGrant.softwareImages, ...images } });
  const pkgBefore = await w.resources(instanceId);
  const rebuilt = await step('change VNF package', () =>
    w.driver.changeVnfpkg(pkgCtx, {
      vnfdId: w.vnfd.vnf.descriptorId,
      vnfd: w.vnfd,
      vnfcs: (info.vnfcResourceInfo ?? []).map((v) => v.id),
    }),
  );
  for (const v of rebuilt.vnfcResourceInfo ?? []) {
    assert.equal(v.metadata?.image, image, `image of ${v.id}`);
    assert.equal(v.computeResource.resourceId, serverOf(info, v.id), `${v.id} rebuilt in place`);
  }
  const restored = await rolledBack('CHANGE_VNFPKG', pkgCtx, pkgBefore);
  for (const v of restored.vnfcResourceInfo ?? []) assert.notEqual(v.metadata?.image, image);
  info = restored;

  await terminate(info);
}
