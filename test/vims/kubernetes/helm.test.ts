/**
 * Helm charts through the Kubernetes driver, against the test API server with the stand-in helm
 * (test/support/helm: Helm 3's CLI contract; no real Helm can be installed here): Tacker's Helm
 * sample instantiated (its Deployments' pods are the VNFCs), scaled out and in through
 * helm_value_names, a VNFC healed, its package changed to the sample's next chart and rolled back
 * to the revision before, scaled out and rolled back, terminated leaving nothing; and the errors:
 * no helm binary, a chart the package does not declare, helm failing (its message in the error).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { OutboundPolicy } from '../../../src/net/address-policy.ts';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { InfraError, type OperationContext } from '../../../src/vims/contract.ts';
import { createKubernetesDriver } from '../../../src/vims/drivers/kubernetes/driver.ts';
import type { Vnfd } from '../../../src/vnfd/model/vnfd.ts';
import { standInHelm } from '../../support/helm/index.ts';
import { context, flavourOf, grantFor, instantiatePlan, newVnfc, sampleVnfd } from '../plans.ts';
import { type KubeFixture, kubeFixture } from './fixture.ts';

const V1 = randomUUID();
const V2 = randomUUID();
const CHART1 = 'Files/kubernetes/test-chart-0.1.0.tgz';
const CHART2 = 'Files/kubernetes/test-chart-0.1.1.tgz';
const VALUE_NAMES = { VDU1: { replica: 'replicaCountVdu1' }, VDU2: { replica: 'replicaCountVdu2' } };

describe('Helm charts through the Kubernetes driver (stand-in helm)', () => {
  let f: KubeFixture;
  let v1: Vnfd;
  let v2: Vnfd;

  before(async () => {
    f = await kubeFixture(
      {
        [V1]: 'sol_kubernetes_v2__test_helm_instantiate.zip',
        [V2]: 'sol_kubernetes_v2__test_helm_change_vnf_pkg.zip',
      },
      { helmPath: standInHelm() },
    );
    v1 = await sampleVnfd('sol_kubernetes_v2__test_helm_instantiate.zip');
    v2 = await sampleVnfd('sol_kubernetes_v2__test_helm_change_vnf_pkg.zip');
  });
  after(() => f.close());

  const helmCtx = (instanceId: string, extra: Record<string, unknown> = {}): OperationContext =>
    context(f.vim, v1, {
      instanceId,
      packageId: V1,
      additionalParams: {
        helm_chart_path: CHART1,
        helm_parameters: { 'service.port': 8080 },
        helm_value_names: VALUE_NAMES,
        ...extra,
      },
    });

  const next = (
    ctx: OperationContext,
    info: InstantiatedVnfInfo,
    fields: Partial<OperationContext> = {},
  ) => ({
    ...ctx,
    opOccId: randomUUID(),
    current: info,
    ...fields,
  });

  /** kubectl shows exactly the instance's VNFCs as pods of their VDUs. */
  async function assertCluster(instanceId: string, info: InstantiatedVnfInfo | undefined) {
    const pods = await f.pods(instanceId);
    const vnfcs = info?.vnfcResourceInfo ?? [];
    assert.deepEqual(
      [...pods.keys()].sort(),
      vnfcs.map((v) => v.computeResource.resourceId).sort(),
      'kubectl get pods',
    );
    for (const v of vnfcs) assert.equal(pods.get(v.computeResource.resourceId)?.vdu, v.vduId);
  }

  const replicas = async (name: string) => {
    const r = await f.kubectl(['get', 'deployment', name, '-o', 'jsonpath={.spec.replicas}']);
    return r.code === 0 ? Number(r.stdout) : undefined;
  };

  const helmHistory = async (release: string) => {
    const r = await f.kubectl([
      'get',
      'secrets',
      '-l',
      `owner=helm,name=${release}`,
      '-o',
      'jsonpath={range .items[*]}{.metadata.labels.version}={.metadata.labels.status} {end}',
    ]);
    return r.stdout.trim().split(' ').filter(Boolean).sort();
  };

  test('instantiate, scale out and in, heal, change package and its rollback, scale-out rollback, terminate', async () => {
    const instanceId = randomUUID();
    const plan = instantiatePlan(v1);
    const ctx = { ...helmCtx(instanceId), grant: grantFor(plan.vnfcs.map((v) => v.id)) };
    const result = await f.driver.instantiate(ctx, plan);
    const info = result.instantiatedVnfInfo as InstantiatedVnfInfo;
    const release = `vnf-${instanceId}`;
    assert.deepEqual(
      info.vnfcResourceInfo?.map((v) => [v.id, v.vduId, v.computeResource.vimLevelResourceType]),
      plan.vnfcs.map((v) => [v.id, v.vduId, 'Deployment']),
    );
    await assertCluster(instanceId, info);
    assert.equal(await replicas(`vdu1-${release}`), 1);
    const port = await f.kubectl([
      'get',
      'service',
      `${release}-test-chart`,
      '-o',
      'jsonpath={.spec.ports[0].port}',
    ]);
    assert.equal(port.stdout, '8080', 'helm_parameters set');
    const meta = info.metadata as { helm: { release: string; revision: number; chart: string } };
    assert.deepEqual([meta.helm.release, meta.helm.revision, meta.helm.chart], [release, 1, CHART1]);

    // Scale out VDU1 through its replica key.
    const flavour = flavourOf(v1);
    const add = [newVnfc(flavour, 'VDU1'), newVnfc(flavour, 'VDU1')];
    const out = await f.driver.scale(next(ctx, info), {
      aspects: [{ aspectId: 'vdu1_aspect', fromLevel: 0, toLevel: 2 }],
      add,
      remove: [],
      scaleStatus: [
        { aspectId: 'vdu1_aspect', scaleLevel: 2 },
        { aspectId: 'vdu2_aspect', scaleLevel: 0 },
      ],
    });
    const scaled = out.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.equal(await replicas(`vdu1-${release}`), 3);
    await assertCluster(instanceId, scaled);
    assert.deepEqual(
      out.changes.affectedVnfcs.map((v) => [v.id, v.changeType]).sort(),
      add.map((v) => [v.id, 'ADDED']).sort(),
    );
    assert.equal((scaled.metadata as typeof meta).helm.revision, 2);

    // Scale in: the VNFC named goes.
    const gone = add[0].id;
    const inResult = await f.driver.scale(next(ctx, scaled), {
      aspects: [{ aspectId: 'vdu1_aspect', fromLevel: 2, toLevel: 1 }],
      add: [],
      remove: [gone],
      scaleStatus: [
        { aspectId: 'vdu1_aspect', scaleLevel: 1 },
        { aspectId: 'vdu2_aspect', scaleLevel: 0 },
      ],
    });
    const scaledIn = inResult.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.equal(await replicas(`vdu1-${release}`), 2);
    assert.ok(!scaledIn.vnfcResourceInfo?.some((v) => v.id === gone));
    assert.equal(scaledIn.vnfcResourceInfo?.length, 3);
    await assertCluster(instanceId, scaledIn);

    // Heal one VNFC: a new pod, the same id.
    const target = scaledIn.vnfcResourceInfo?.find((v) => v.vduId === 'VDU2') as NonNullable<
      InstantiatedVnfInfo['vnfcResourceInfo']
    >[number];
    const healed = await f.driver.heal(next(ctx, scaledIn), { vnfcs: [target.id] } as never);
    const afterHeal = healed.instantiatedVnfInfo as InstantiatedVnfInfo;
    const same = afterHeal.vnfcResourceInfo?.find((v) => v.id === target.id);
    assert.ok(same);
    assert.notEqual(same.computeResource.resourceId, target.computeResource.resourceId);
    await assertCluster(instanceId, afterHeal);

    // Change package: the release upgraded to the next chart; rolled back to the revision before.
    const changeCtx = next(ctx, afterHeal, {
      vnfd: v2,
      packageId: V2,
      additionalParams: { helm_chart_path: CHART2, helm_value_names: VALUE_NAMES },
    });
    const changed = await f.driver.changeVnfpkg(changeCtx, {
      vnfdId: v2.vnf.descriptorId,
      vnfd: v2,
      vnfcs: (afterHeal.vnfcResourceInfo ?? []).map((v) => v.id),
    });
    const afterChange = changed.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.deepEqual((afterChange.metadata as typeof meta).helm.chart, CHART2);
    const chartLabel = async () =>
      (
        await f.kubectl([
          'get',
          'deployment',
          `vdu1-${release}`,
          '-o',
          "jsonpath={.metadata.labels['helm\\.sh/chart']}",
        ])
      ).stdout;
    assert.equal(await chartLabel(), 'test-chart-0.1.1');
    assert.equal(await replicas(`vdu1-${release}`), 2, 'replicas kept');
    await assertCluster(instanceId, afterChange);
    const revisionBefore = (afterHeal.metadata as typeof meta).helm.revision;
    const back = await f.driver.rollback(next(changeCtx, afterHeal), 'CHANGE_VNFPKG');
    const afterBack = back.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.equal(await chartLabel(), 'test-chart-0.1.0');
    assert.deepEqual(
      afterBack.vnfcResourceInfo?.map((v) => v.id).sort(),
      afterHeal.vnfcResourceInfo?.map((v) => v.id).sort(),
    );
    await assertCluster(instanceId, afterBack);
    const history = await helmHistory(release);
    assert.ok(history.includes(`${revisionBefore + 2}=deployed`), `rolled back: ${history}`);

    // A scale out rolled back: the release's replicas as before.
    const extra = [newVnfc(flavour, 'VDU2')];
    const outCtx = next(ctx, afterBack);
    await f.driver.scale(outCtx, {
      aspects: [{ aspectId: 'vdu2_aspect', fromLevel: 0, toLevel: 1 }],
      add: extra,
      remove: [],
      scaleStatus: [],
    });
    assert.equal(await replicas(`vdu2-${release}`), 2);
    const undone = await f.driver.rollback({ ...outCtx, opOccId: outCtx.opOccId }, 'SCALE_OUT');
    assert.equal(await replicas(`vdu2-${release}`), 1);
    await assertCluster(instanceId, undone.instantiatedVnfInfo);

    // Terminate: the release and everything of it gone.
    await f.driver.terminate(next(ctx, undone.instantiatedVnfInfo as InstantiatedVnfInfo), {
      terminationType: 'FORCEFUL',
    } as never);
    assert.deepEqual(await f.resources(instanceId), []);
    assert.deepEqual(await helmHistory(release), []);
    const left = await f.kubectl([
      'get',
      'deployments,services',
      '-l',
      `app.kubernetes.io/instance=${release}`,
      '-o',
      'name',
    ]);
    assert.equal(left.stdout, '');
  });

  test('an instantiate rolled back uninstalls the release', async () => {
    const instanceId = randomUUID();
    const plan = instantiatePlan(v1);
    const ctx = helmCtx(instanceId);
    await f.driver.instantiate(ctx, plan);
    await f.driver.rollback(ctx, 'INSTANTIATE');
    assert.deepEqual(await f.resources(instanceId), []);
    assert.deepEqual(await helmHistory(`vnf-${instanceId}`), []);
  });

  async function rejects(p: Promise<unknown>, code: string, message: RegExp) {
    await assert.rejects(p, (e: unknown) => {
      assert.ok(e instanceof InfraError, String(e));
      assert.equal(e.code, code);
      assert.match(e.message, message);
      return true;
    });
  }

  test('errors: no helm binary, a chart the package does not declare, no replica keys, helm failing', async () => {
    const plan = instantiatePlan(v1);
    const missing = createKubernetesDriver({
      policy: new OutboundPolicy(['127.0.0.1']),
      blobs: f.blobs,
      config: { ...f.config, helmPath: '/nonexistent/helm' },
    });
    const id1 = randomUUID();
    await rejects(
      missing.instantiate(helmCtx(id1), plan),
      'INVALID_REQUEST',
      /need the helm binary \(Helm 3\) on the Bosun host, and kubernetes\.helmPath \/nonexistent\/helm runs none/,
    );
    assert.deepEqual(await f.resources(id1), []);
    await rejects(
      f.driver.instantiate(helmCtx(randomUUID(), { helm_chart_path: 'Files/kubernetes/other.tgz' }), plan),
      'INVALID_REQUEST',
      /additionalParams\.helm_chart_path names Files\/kubernetes\/other\.tgz, not a manifest or artifact of the VNF package/,
    );
    await rejects(
      f.driver.instantiate(
        helmCtx(randomUUID(), { helm_value_names: { VDU1: { replica: 'replicaCountVdu1' } } }),
        plan,
      ),
      'INVALID_REQUEST',
      /helm_value_names has no replica key for VDU2/,
    );
    // Objects the API server refuses (a Service name that is not a DNS name): helm's own message;
    // the rollback leaves nothing.
    const id2 = randomUUID();
    const bad = helmCtx(id2, { helm_parameters: { nameOverride: 'Bad_Name' } });
    await rejects(
      f.driver.instantiate(bad, plan),
      'VIM_OPERATION_FAILED',
      /^helm install failed: Error: INSTALLATION FAILED: .*Bad_Name/s,
    );
    await f.driver.rollback(bad, 'INSTANTIATE');
    assert.deepEqual(await f.resources(id2), []);
    assert.deepEqual(await helmHistory(`vnf-${id2}`), []);
  });

  test('a change of package whose upgrade fails is rolled back to the revision before', async () => {
    const instanceId = randomUUID();
    const plan = instantiatePlan(v1);
    const ctx = helmCtx(instanceId);
    const info = (await f.driver.instantiate(ctx, plan)).instantiatedVnfInfo as InstantiatedVnfInfo;
    const release = `vnf-${instanceId}`;
    // Another name changes the Deployments' selectors, which are immutable: the upgrade fails.
    const changeCtx = next(ctx, info, {
      vnfd: v2,
      packageId: V2,
      additionalParams: { helm_chart_path: CHART2, helm_parameters: { nameOverride: 'renamed' } },
    });
    await rejects(
      f.driver.changeVnfpkg(changeCtx, { vnfdId: v2.vnf.descriptorId, vnfd: v2, vnfcs: [] }),
      'VIM_OPERATION_FAILED',
      /^helm upgrade failed: Error: UPGRADE FAILED: /,
    );
    assert.ok((await helmHistory(release)).includes('2=failed'));
    const back = await f.driver.rollback(changeCtx, 'CHANGE_VNFPKG');
    assert.ok((await helmHistory(release)).includes('3=deployed'));
    await assertCluster(instanceId, back.instantiatedVnfInfo);
    await f.driver.terminate(next(ctx, back.instantiatedVnfInfo as InstantiatedVnfInfo), {
      terminationType: 'FORCEFUL',
    } as never);
    assert.deepEqual(await f.resources(instanceId), []);
  });
});
