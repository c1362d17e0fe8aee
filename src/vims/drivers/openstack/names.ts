/**
 * Names and tags of what the OpenStack driver creates: one Heat stack per VNF instance, named
 * from the instance id (as Tacker names it), tagged with the instance and the op occ that made
 * or last changed it, so the cloud's own listings show whose it is.
 */

export const OPENSTACK_VIM_TYPES = ['ETSINFV.OPENSTACK_KEYSTONE.V_3', 'openstack'] as const;

export const stackNameOf = (instanceId: string) => `vnf-${instanceId}`;

export const instanceTag = (instanceId: string) => `bosun-instance-${instanceId}`;
export const opOccTag = (opOccId: string) => `bosun-opocc-${opOccId}`;

/** The resource types Bosun reports in resource handles (vimLevelResourceType). */
export const RESOURCE_TYPES = {
  server: 'OS::Nova::Server',
  volume: 'OS::Cinder::Volume',
  network: 'OS::Neutron::Net',
  port: 'OS::Neutron::Port',
  stack: 'OS::Heat::Stack',
} as const;

/** Ids derived from the VNFC id, so they survive heal (as the simulated VIM's). */
export const vnfcCpInfoId = (cpdId: string, vnfcId: string) => `${cpdId}-${vnfcId}`;
export const storageInfoId = (storageDescId: string, vnfcId: string) => `${storageDescId}-${vnfcId}`;
export const vnfcInfoId = (vduId: string, vnfcId: string) => `${vduId}-${vnfcId}`;
