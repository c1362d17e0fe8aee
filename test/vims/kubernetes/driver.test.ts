/**
 * The Kubernetes driver's operations against the test API server, each checked against what the
 * real kubectl shows: the instance's pods are exactly its VNFCs after instantiate, scale out and
 * its rollback, scale in, heal of a pod, of a bare Pod and of the whole VNF (after its Deployment
 * was deleted behind Bosun's back), change of package (a new image) and its rollback, terminate
 * (which leaves what Bosun did not apply); failures a cluster has (an image that cannot be
 * pulled, an exceeded quota, no node for a pod) fail the operation with the pod's events, and a
 * rollback leaves nothing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { InfraError, type InstantiatePlan, type OperationContext } from '../../../src/vims/contract.ts';
import type { Vnfd } from '../../../src/vnfd/model/vnfd.ts';
import { context, flavourOf, grantFor, instantiatePlan, newVnfc, sampleVnfd } from '../plans.ts';
import { type KubeFixture, kubeFixture } from './fixture.ts';

const HEAL = randomUUID();
const BEFORE = randomUUID();
const AFTER = randomUUID();
const SIMPLE = ['Files/kubernetes/deployment_heal_simple.yaml'];

describe('Kubernetes driver on the test API server', () => {
  let f: KubeFixture;
  let heal: Vnfd;
  let updateFrom: Vnfd;
  let updateTo: Vnfd;
  before(async () => {
    f = await kubeFixture({
      [HEAL]: 'test_cnf_heal.zip',
      [BEFORE]: 'sol_kubernetes_v2__test_cnf_container_update_before.zip',
      [AFTER]: 'sol_kubernetes_v2__test_cnf_container_update_after.zip',
    });
    heal = await sampleVnfd('test_cnf_heal.zip');
    updateFrom = await sampleVnfd('sol_kubernetes_v2__test_cnf_container_update_before.zip');
    updateTo = await sampleVnfd('sol_kubernetes_v2__test_cnf_container_update_after.zip');
  });
  after(() => f.close());

  interface Run {
    instanceId: string;
    ctx: OperationContext;
    info: InstantiatedVnfInfo;
  }

  const ctxFor = (
    instanceId: string,
    vnfd: Vnfd,
    fields: Partial<OperationContext> & { files: string[]; packageId: string },
  ): OperationContext => {
    const { files, ...rest } = fields;
    return context(f.vim, vnfd, {
      instanceId,
      additionalParams: { 'lcm-kubernetes-def-files': files, ...fields.additionalParams },
      ...rest,
    });
  };

  async function instantiated(
    options: {
      vnfd?: Vnfd;
      flavourId?: string;
      level?: string;
      files?: string[];
      packageId?: string;
      namespace?: string;
    } = {},
  ): Promise<Run & { plan: InstantiatePlan }> {
    const vnfd = options.vnfd ?? heal;
    const plan = instantiatePlan(vnfd, options.flavourId ?? 'simple', options.level);
    const instanceId = randomUUID();
    const ctx = ctxFor(instanceId, vnfd, {
      files: options.files ?? SIMPLE,
      packageId: options.packageId ?? HEAL,
      flavourId: options.flavourId ?? 'simple',
      grant: grantFor(plan.vnfcs.map((v) => v.id)),
      ...(options.namespace ? { additionalParams: { namespace: options.namespace } } : {}),
    });
    const result = await f.driver.instantiate(ctx, plan);
    assert.ok(result.instantiatedVnfInfo);
    return { instanceId, ctx, info: result.instantiatedVnfInfo, plan };
  }

  const next = (
    run: Run,
    info: InstantiatedVnfInfo,
    fields: Partial<OperationContext> = {},
  ): OperationContext => ({
    ...run.ctx,
    opOccId: randomUUID(),
    current: info,
    ...fields,
  });

  /** kubectl shows exactly the instance's VNFCs as pods, each of its VDU, all Running. */
  async function assertCluster(
    instanceId: string,
    info: InstantiatedVnfInfo | undefined,
    namespace?: string,
  ) {
    const pods = await f.pods(instanceId, namespace);
    const vnfcs = info?.vnfcResourceInfo ?? [];
    assert.deepEqual(
      [...pods.keys()].sort(),
      vnfcs.map((v) => v.computeResource.resourceId).sort(),
      'kubectl get pods',
    );
    for (const v of vnfcs) {
      const pod = pods.get(v.computeResource.resourceId);
      assert.equal(pod?.vdu, v.vduId);
      assert.equal(pod?.phase, 'Running');
    }
  }

  async function rejects(
    work: Promise<unknown>,
    code: InfraError['code'],
    message: RegExp,
  ): Promise<InfraError> {
    try {
      await work;
    } catch (error) {
      assert.ok(error instanceof InfraError, String(error));
      assert.equal(error.code, code, error.message);
      assert.match(error.message, message);
      return error;
    }
    assert.fail(`expected InfraError ${code}`);
  }

  test('instantiate, scale out and its rollback, scale in: the pods are the VNFCs each time', async () => {
    const run = await instantiated();
    await assertCluster(run.instanceId, run.info);
    assert.equal(run.info.vnfcResourceInfo?.length, 2);
    assert.deepEqual(run.info.metadata?.namespace, 'default');
    const flavour = flavourOf(heal);
    const add = [newVnfc(flavour, 'VDU1')];
    const outCtx = next(run, run.info);
    const out = await f.driver.scale(outCtx, {
      aspects: [{ aspectId: 'vdu1_aspect', fromLevel: 0, toLevel: 1 }],
      add,
      remove: [],
      scaleStatus: [{ aspectId: 'vdu1_aspect', scaleLevel: 1 }],
    });
    const scaled = out.instantiatedVnfInfo as InstantiatedVnfInfo;
    await assertCluster(run.instanceId, scaled);
    assert.equal(scaled.vnfcResourceInfo?.[0].id, add[0].id, 'newest first');
    assert.deepEqual(
      out.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
      [[add[0].id, 'ADDED']],
    );
    assert.deepEqual(scaled.scaleStatus, [{ aspectId: 'vdu1_aspect', scaleLevel: 1 }]);
    const resources = await f.resources(run.instanceId);
    assert.ok(
      resources.some(
        (r) =>
          r.id === scaled.vnfcResourceInfo?.[0].computeResource.resourceId && r.opOccId === outCtx.opOccId,
      ),
      'the new pod carries the scale op occ',
    );

    const back = await f.driver.rollback(outCtx, 'SCALE_OUT');
    assert.deepEqual(
      back.instantiatedVnfInfo?.vnfcResourceInfo?.map((v) => v.id).sort(),
      run.info.vnfcResourceInfo?.map((v) => v.id).sort(),
    );
    assert.deepEqual(
      back.changes.affectedVnfcs.filter((v) => v.changeType === 'REMOVED').map((v) => v.id),
      [add[0].id],
    );
    await assertCluster(run.instanceId, back.instantiatedVnfInfo);

    const replicas = await f.kubectl([
      'get',
      'deployment',
      'vdu1-heal-simple',
      '-o',
      'jsonpath={.spec.replicas}',
    ]);
    assert.equal(replicas.stdout, '2');
    await f.driver.terminate(next(run, run.info), { terminationType: 'FORCEFUL' });
  });

  test('scale in removes the VNFCs named; kubectl shows the rest', async () => {
    const run = await instantiated({ level: 'instantiation_level_2' });
    assert.equal(run.info.vnfcResourceInfo?.length, 3);
    const [first, ...rest] = run.info.vnfcResourceInfo ?? [];
    const result = await f.driver.scale(next(run, run.info), {
      aspects: [{ aspectId: 'vdu1_aspect', fromLevel: 1, toLevel: 0 }],
      add: [],
      remove: [first.id],
      scaleStatus: [{ aspectId: 'vdu1_aspect', scaleLevel: 0 }],
    });
    const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.deepEqual(
      out.vnfcResourceInfo?.map((v) => v.id),
      rest.map((v) => v.id),
    );
    assert.deepEqual(
      result.changes.affectedVnfcs.filter((v) => v.changeType === 'REMOVED').map((v) => v.id),
      [first.id],
    );
    await assertCluster(run.instanceId, out);
    await f.driver.terminate(next(run, out), { terminationType: 'FORCEFUL' });
    await assertCluster(run.instanceId, undefined);
  });

  test('heal of one VNFC replaces its pod and keeps its id; the whole VNF brings back a Deployment deleted behind Bosun', async () => {
    const run = await instantiated();
    const [target, other] = run.info.vnfcResourceInfo ?? [];
    const result = await f.driver.heal(next(run, run.info), { vnfcs: [target.id], includeStorage: false });
    const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
    const healed = out.vnfcResourceInfo?.find((v) => v.id === target.id);
    assert.notEqual(healed?.computeResource.resourceId, target.computeResource.resourceId);
    assert.deepEqual(
      out.vnfcResourceInfo?.find((v) => v.id === other.id)?.computeResource,
      other.computeResource,
    );
    assert.deepEqual(
      result.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
      [[target.id, 'MODIFIED']],
    );
    await assertCluster(run.instanceId, out);

    const deleted = await f.kubectl(['delete', 'deployment', 'vdu1-heal-simple', '--wait=true']);
    assert.equal(deleted.code, 0, deleted.stderr);
    const whole = await f.driver.heal(next(run, out), {
      vnfcs: (out.vnfcResourceInfo ?? []).map((v) => v.id),
      includeStorage: false,
    });
    const restored = whole.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.deepEqual(
      restored.vnfcResourceInfo?.map((v) => v.id),
      out.vnfcResourceInfo?.map((v) => v.id),
    );
    assert.ok(whole.changes.affectedVnfcs.every((v) => v.changeType === 'MODIFIED'));
    await assertCluster(run.instanceId, restored);
    await f.driver.terminate(next(run, restored), { terminationType: 'FORCEFUL' });
  });

  test('heal of a bare Pod deletes it and applies it again', async () => {
    const run = await instantiated({
      flavourId: 'complex',
      files: ['Files/kubernetes/deployment_heal_complex.yaml', 'Files/kubernetes/pod_heal.yaml'],
    });
    const pod = run.info.vnfcResourceInfo?.find((v) => v.vduId === 'VDU2');
    assert.equal(pod?.computeResource.resourceId, 'vdu2-heal');
    const uid = async () =>
      (await f.kubectl(['get', 'pod', 'vdu2-heal', '-o', 'jsonpath={.metadata.uid}'])).stdout;
    const before = await uid();
    const result = await f.driver.heal(next(run, run.info), { vnfcs: [pod.id], includeStorage: false });
    assert.notEqual(await uid(), before, 'a new pod of the same name');
    await assertCluster(run.instanceId, result.instantiatedVnfInfo);
    await f.driver.terminate(next(run, result.instantiatedVnfInfo as InstantiatedVnfInfo), {
      terminationType: 'GRACEFUL',
      gracefulTerminationTimeout: 1,
    });
    await assertCluster(run.instanceId, undefined);
  });

  test('change of package rolls the named VDU to the new image; its rollback rolls it back', async () => {
    const files = ['Files/kubernetes/deployment.yaml'];
    const run = await instantiated({ vnfd: updateFrom, files, packageId: BEFORE });
    assert.equal(run.info.vnfcResourceInfo?.length, 1, 'VDU1 only: the other VDUs are not in the files');
    const image = async () => [...(await f.pods(run.instanceId)).values()].map((p) => p.images.join(','));
    assert.deepEqual(await image(), ['nginx']);
    const ctx = next(run, run.info, {
      vnfd: updateTo,
      packageId: AFTER,
      additionalParams: {
        'lcm-kubernetes-def-files': files,
        upgrade_type: 'RollingUpdate',
        vdu_params: [{ vdu_id: 'VDU1' }],
      },
    });
    const changed = await f.driver.changeVnfpkg(ctx, {
      vnfdId: updateTo.vnf.descriptorId,
      vnfd: updateTo,
      vnfcs: (run.info.vnfcResourceInfo ?? []).map((v) => v.id),
    });
    const out = changed.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.deepEqual(await image(), ['cirros']);
    assert.deepEqual(
      changed.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
      [[run.info.vnfcResourceInfo?.[0].id, 'MODIFIED']],
    );
    await assertCluster(run.instanceId, out);
    const back = await f.driver.rollback(ctx, 'CHANGE_VNFPKG');
    assert.deepEqual(await image(), ['nginx']);
    assert.deepEqual(
      back.instantiatedVnfInfo?.vnfcResourceInfo?.map((v) => v.id),
      run.info.vnfcResourceInfo?.map((v) => v.id),
    );
    assert.deepEqual(back.instantiatedVnfInfo?.metadata, run.info.metadata);
    await assertCluster(run.instanceId, back.instantiatedVnfInfo);
    await f.driver.terminate(next(run, run.info), { terminationType: 'FORCEFUL' });
  });

  test('drift: a pod deleted or a replica added behind Bosun is read back by sync; no drift, no change', async () => {
    const run = await instantiated();
    assert.ok(f.driver.sync);
    assert.equal(await f.driver.sync(f.vim, run.instanceId, run.info), undefined, 'nothing drifted');
    const [gone, stays] = run.info.vnfcResourceInfo ?? [];
    const deleted = await f.kubectl(['delete', 'pod', gone.computeResource.resourceId, '--wait=true']);
    assert.equal(deleted.code, 0, deleted.stderr);
    const waitFor = async (count: number) => {
      for (let i = 0; i < 200; i++) {
        const pods = [...(await f.pods(run.instanceId)).values()];
        if (pods.length === count && pods.every((p) => p.phase === 'Running')) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail(`the cluster never ran ${count} pods`);
    };
    await waitFor(2);
    const synced = await f.driver.sync(f.vim, run.instanceId, run.info);
    assert.ok(synced);
    assert.deepEqual(
      synced.vnfcResourceInfo?.map((v) => v.id).sort(),
      [gone.id, stays.id].sort(),
      'the VNFC outlives its pod',
    );
    assert.notEqual(
      synced.vnfcResourceInfo?.find((v) => v.id === gone.id)?.computeResource.resourceId,
      gone.computeResource.resourceId,
    );
    assert.deepEqual(
      synced.vnfcResourceInfo?.find((v) => v.id === stays.id)?.computeResource,
      stays.computeResource,
    );
    await assertCluster(run.instanceId, synced);

    const scaled = await f.kubectl(['scale', 'deployment', 'vdu1-heal-simple', '--replicas=3']);
    assert.equal(scaled.code, 0, scaled.stderr);
    await waitFor(3);
    const grown = await f.driver.sync(f.vim, run.instanceId, synced);
    assert.equal(grown?.vnfcResourceInfo?.length, 3);
    assert.ok(
      !synced.vnfcResourceInfo?.some((v) => v.id === grown?.vnfcResourceInfo?.[0].id),
      'a new VNFC, newest first',
    );
    await assertCluster(run.instanceId, grown);
    await f.driver.terminate(next(run, grown as InstantiatedVnfInfo), { terminationType: 'FORCEFUL' });
  });

  test('terminate deletes only what Bosun applied', async () => {
    const run = await instantiated();
    const name = `not-bosuns-${run.instanceId.slice(0, 8)}`;
    const mine = await f.kubectl(['apply', '--server-side', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: 'default' },
      }),
    });
    assert.equal(mine.code, 0, mine.stderr);
    await f.driver.terminate(next(run, run.info), { terminationType: 'FORCEFUL' });
    assert.deepEqual(await f.resources(run.instanceId), []);
    const kept = await f.kubectl(['get', 'configmap', name]);
    assert.equal(kept.code, 0, 'the operator’s ConfigMap is still there');
  });

  test('an object of the same name that is another instance’s, or the operator’s, is refused before anything is applied', async () => {
    const first = await instantiated();
    const namespace = 'default';
    const before = await f.kubectl([
      'get',
      'deployment',
      'vdu1-heal-simple',
      '-o',
      'jsonpath={.metadata.resourceVersion}',
    ]);
    assert.equal(before.code, 0, before.stderr);
    // A second instance of the same package in the same namespace would take over the first's Deployment.
    const second = randomUUID();
    const plan = instantiatePlan(heal, 'simple');
    const ctx = ctxFor(second, heal, {
      files: SIMPLE,
      packageId: HEAL,
      flavourId: 'simple',
      grant: grantFor(plan.vnfcs.map((v) => v.id)),
    });
    await rejects(
      f.driver.instantiate(ctx, plan),
      'INVALID_REQUEST',
      new RegExp(
        `^Deployment vdu1-heal-simple in namespace ${namespace} belongs to VNF instance ${first.instanceId}: give this instance a namespace of its own`,
      ),
    );
    const after = await f.kubectl([
      'get',
      'deployment',
      'vdu1-heal-simple',
      '-o',
      'jsonpath={.metadata.resourceVersion}',
    ]);
    assert.equal(after.stdout, before.stdout, 'the first instance’s Deployment is untouched');
    assert.deepEqual(await f.resources(second), []);
    await assertCluster(first.instanceId, first.info);
    await f.driver.terminate(next(first, first.info), { terminationType: 'FORCEFUL' });

    // One the operator made by hand is not taken over either (its terminate would delete it).
    const made = await f.kubectl(['apply', '--server-side', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'vdu1-heal-simple', namespace },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'by-hand' } },
          template: {
            metadata: { labels: { app: 'by-hand' } },
            spec: { containers: [{ name: 'web', image: 'nginx' }] },
          },
        },
      }),
    });
    assert.equal(made.code, 0, made.stderr);
    await rejects(
      f.driver.instantiate(ctx, plan),
      'INVALID_REQUEST',
      /^Deployment vdu1-heal-simple in namespace default exists and was not made by Bosun: .*remove it or choose another namespace/,
    );
    assert.deepEqual(await f.resources(second), []);
    assert.equal((await f.kubectl(['delete', 'deployment', 'vdu1-heal-simple', '--wait=true'])).code, 0);
    // Gone, the name is free again.
    const result = await f.driver.instantiate(ctx, plan);
    await f.driver.terminate(
      { ...ctx, opOccId: randomUUID(), current: result.instantiatedVnfInfo },
      { terminationType: 'FORCEFUL' },
    );
  });

  describe('failures', () => {
    const failing = async (fault: () => void, code: InfraError['code'], message: RegExp) => {
      fault();
      const vnfd = heal;
      const plan = instantiatePlan(vnfd);
      const instanceId = randomUUID();
      const ctx = ctxFor(instanceId, vnfd, {
        files: SIMPLE,
        packageId: HEAL,
        grant: grantFor(plan.vnfcs.map((v) => v.id)),
      });
      try {
        const error = await rejects(f.driver.instantiate(ctx, plan), code, message);
        return { instanceId, ctx, error };
      } finally {
        f.api.cluster.failures.clear();
      }
    };

    test('an image that cannot be pulled fails instantiate with the pod’s events; rollback leaves nothing', async () => {
      const { instanceId, ctx } = await failing(
        () => f.api.cluster.failures.imagePullError('nginx'),
        'VIM_OPERATION_FAILED',
        /Pod vdu1-heal-simple-[a-z0-9]+-[a-z0-9]+ of VDU1 \(Deployment vdu1-heal-simple\) cannot start: (ErrImagePull|ImagePullBackOff).*Events of pod .*Failed/,
      );
      assert.ok((await f.resources(instanceId)).length > 0, 'what was applied stays until the rollback');
      await f.driver.rollback(ctx, 'INSTANTIATE');
      assert.deepEqual(await f.resources(instanceId), []);
    });

    test('an exceeded quota fails instantiate with the admission’s message', async () => {
      const { ctx } = await failing(
        () =>
          f.api.cluster.failures.quota({
            name: 'pods-quota',
            namespace: 'default',
            resource: 'pods',
            hard: 0,
          }),
        'VIM_OPERATION_FAILED',
        /cannot create its pods: .*exceeded quota: pods-quota/,
      );
      await f.driver.rollback(ctx, 'INSTANTIATE');
    });

    test('a pod no node can take is NO_VALID_HOST naming its VDU and the scheduler’s reason', async () => {
      const { ctx, error } = await failing(
        () => f.api.cluster.failures.unschedulablePods(''),
        'NO_VALID_HOST',
        /of VDU1 \(Deployment vdu1-heal-simple\) cannot be scheduled: 0\/2 nodes are available/,
      );
      assert.equal(error.detail?.vduId, 'VDU1');
      await f.driver.rollback(ctx, 'INSTANTIATE');
    });

    test('files the package does not declare, or none, are refused before anything is applied', async () => {
      const plan = instantiatePlan(updateFrom);
      const instanceId = randomUUID();
      const ctx = ctxFor(instanceId, updateFrom, {
        files: ['Files/kubernetes/deployment.yaml', 'Files/kubernetes/not-there.yaml'],
        packageId: BEFORE,
      });
      await rejects(
        f.driver.instantiate(ctx, plan),
        'INVALID_REQUEST',
        /names Files\/kubernetes\/not-there\.yaml, not a manifest or artifact of the VNF package/,
      );
      await rejects(
        f.driver.instantiate(ctxFor(instanceId, updateFrom, { files: [], packageId: BEFORE }), plan),
        'INVALID_REQUEST',
        /needs additionalParams\.lcm-kubernetes-def-files/,
      );
      assert.deepEqual(await f.resources(instanceId), []);
    });
  });
});
