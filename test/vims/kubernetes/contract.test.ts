/**
 * The infra-driver contract suite on the Kubernetes driver, against the test API server (no
 * real cluster here; see fixture.ts). The sample is Tacker's container update CNF (flavour
 * simple: VDU1 is Deployment vdu1-update, VDU2 ReplicaSet vdu2-update, one more pod per level of
 * their aspects); the change of package is its pair, which moves VDU1 from nginx to cirros. Each
 * instance has a namespace of its own (the sample's objects have fixed names).
 *
 * What the suite's VM-shaped operations ask has no meaning for a CNF: ports, volumes and
 * external links (the manifests have none), operate, change of external connectivity or flavour,
 * server groups, the VM samples. The scheduler places pods whatever zone the grant names, as
 * Tacker's driver lets it, so a zone with no room is to this driver a cluster with no room. A
 * rollout makes new pods, so a rollback gives back the VNFCs, not their pods. The VIM's faults
 * are the test cluster's: an image that cannot be pulled, pods no node has room for, a pull
 * that never ends, a pod whose containers start crashing; a pod deletion refused is not one.
 */
import { randomUUID } from 'node:crypto';
import { mustKind } from '../../support/kube-api/kinds.ts';
import { type ContractTarget, infraContractSuite } from '../contract-suite.ts';
import { kubeFixture, ZONES } from './fixture.ts';

const BEFORE = randomUUID();
const AFTER = randomUUID();
const POD = mustKind('Pod');
const FILES = ['Files/kubernetes/deployment.yaml', 'Files/kubernetes/replicaset.yaml'];
/** The image of the sample's VDU1. */
const IMAGE = 'nginx';

infraContractSuite(
  'Kubernetes (test API server)',
  async (): Promise<ContractTarget> => {
    const f = await kubeFixture({
      [BEFORE]: 'sol_kubernetes_v2__test_cnf_container_update_before.zip',
      [AFTER]: 'sol_kubernetes_v2__test_cnf_container_update_after.zip',
    });
    const failures = f.api.cluster.failures;
    // Each instance in a namespace of its own: the sample's objects have fixed names.
    const namespaces = new Map<string, string>();
    const namespaceOf = (instanceId: string) => {
      let ns = namespaces.get(instanceId);
      if (!ns) {
        ns = `cnf-${namespaces.size + 1}`;
        f.api.cluster.seedNamespace(ns);
        namespaces.set(instanceId, ns);
      }
      return ns;
    };
    return {
      driver: f.driver,
      vim: f.vim,
      zones: [...ZONES],
      sample: 'sol_kubernetes_v2__test_cnf_container_update_before.zip',
      vdus: ['VDU1', 'VDU2'],
      noRoomMessage: '0/2 nodes are available: 2 Insufficient cpu',
      contextFields: (instanceId) => ({
        packageId: BEFORE,
        additionalParams: { 'lcm-kubernetes-def-files': FILES, namespace: namespaceOf(instanceId) },
      }),
      packageChange: {
        from: 'sol_kubernetes_v2__test_cnf_container_update_before.zip',
        to: 'sol_kubernetes_v2__test_cnf_container_update_after.zip',
        toFields: {
          packageId: AFTER,
          additionalParams: { upgrade_type: 'RollingUpdate', vdu_params: [{ vdu_id: 'VDU1' }] },
        },
      },
      faults: {
        // Every new pod of the image fails to pull until cleared (the count is the kubelet's to retry).
        async failCompute() {
          failures.imagePullError(IMAGE);
          return `Failed to pull image "${IMAGE}"`;
        },
        async failComputeRemoval() {
          throw new Error('a pod deletion the cluster refuses is not a fault of the test cluster');
        },
        // Every new pod of the image waits for a pull that does not end (a registry that hangs).
        hangCompute: async () => failures.holdPull(IMAGE),
        exhaustZone: async () => failures.unschedulablePods(''),
        restoreZone: async () => failures.clear(),
        async breakCompute(pod) {
          const [live] = f.api.cluster.store.list(POD, undefined, (p) => p.metadata.name === pod);
          failures.breakPod(live.metadata.namespace, pod);
        },
        clear: async () => failures.clear(),
      },
      resources: (instanceId) => f.resources(instanceId),
      close: () => f.close(),
    };
  },
  {
    operations: new Set(['scale', 'heal', 'changeVnfpkg']),
    faults: new Set(['failCompute', 'hangCompute', 'exhaustZone', 'restoreZone', 'breakCompute', 'clear']),
    placesInGrantedZone: false,
    rebuildsInPlace: false,
    runsVmSamples: false,
    timeoutMs: 60_000,
  },
);
