/**
 * The infra-driver contract suite on the Kubernetes driver, against the test API server (no
 * real cluster here; see fixture.ts). The sample is Tacker's test_cnf_heal CNF (flavour simple:
 * VDU1 is Deployment vdu1-heal-simple). What the suite's VM-shaped operations ask (ports,
 * volumes, external links, operate) has no meaning for a CNF, and the scheduler places pods
 * whatever zone the grant names, as Tacker's driver lets it; scale, heal, change of package and
 * failures are in driver.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { type ContractTarget, infraContractSuite } from '../contract-suite.ts';
import { kubeFixture, ZONES } from './fixture.ts';

const PACKAGE = randomUUID();

infraContractSuite(
  'Kubernetes (test API server)',
  async (): Promise<ContractTarget> => {
    const f = await kubeFixture({ [PACKAGE]: 'test_cnf_heal.zip' });
    const none = async (): Promise<never> => {
      throw new Error('not a fault of this scope');
    };
    return {
      driver: f.driver,
      vim: f.vim,
      zones: [...ZONES],
      sample: 'test_cnf_heal.zip',
      contextFields: {
        packageId: PACKAGE,
        additionalParams: { 'lcm-kubernetes-def-files': ['Files/kubernetes/deployment_heal_simple.yaml'] },
      },
      faults: {
        failCompute: none,
        failComputeRemoval: none,
        hangCompute: none,
        exhaustZone: none,
        restoreZone: none,
        breakCompute: none,
        clear: async () => f.api.cluster.failures.clear(),
      },
      resources: (instanceId) => f.resources(instanceId),
      close: () => f.close(),
    };
  },
  { operations: new Set(), faults: new Set(), placesInGrantedZone: false, timeoutMs: 60_000 },
);
