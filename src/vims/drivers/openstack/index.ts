/**
 * The OpenStack driver as a driver module: serves `ETSINFV.OPENSTACK_KEYSTONE.V_3` (and Tacker's
 * legacy `openstack` VIM type), calling the VIM's endpoints under the outbound policy (the
 * operator lists a private cloud's addresses in outbound.allow), and describes a VIM's zones,
 * hosts and capacity for registration checks.
 */
import { OutboundPolicy } from '../../../net/address-policy.ts';
import type { DriverModule } from '../module.ts';
import { createOpenStackDriver } from './driver.ts';
import { OPENSTACK_VIM_TYPES } from './names.ts';
import { describeForRegistry } from './registry-describe.ts';

export const openStackDriver: DriverModule = {
  vimTypes: OPENSTACK_VIM_TYPES,
  async prepare(config, deps) {
    return createOpenStackDriver({
      db: deps.db,
      blobs: deps.blobs,
      policy: OutboundPolicy.fromConfig(config),
    });
  },
  describe: (vim, config) => describeForRegistry(vim, config),
};
