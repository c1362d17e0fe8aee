/**
 * The Kubernetes driver as a driver module: serves `ETSINFV.KUBERNETES.V_1` (and Tacker's
 * `kubernetes` alias), calling the API server under the outbound policy (a private cluster's
 * address goes in outbound.allow), and describes a cluster's zones and nodes for registration.
 */
import { OutboundPolicy } from '../../../net/address-policy.ts';
import type { DriverModule } from '../module.ts';
import { describeKubernetesVim } from './describe.ts';
import { createKubernetesDriver } from './driver.ts';
import { KUBERNETES_VIM_TYPES } from './names.ts';

export const kubernetesDriver: DriverModule = {
  vimTypes: KUBERNETES_VIM_TYPES,
  async prepare(config, deps) {
    return createKubernetesDriver({
      policy: OutboundPolicy.fromConfig(config),
      ...(deps.blobs ? { blobs: deps.blobs } : {}),
      config: config.kubernetes,
    });
  },
  describe: (vim, config) => describeKubernetesVim(vim, config),
};
