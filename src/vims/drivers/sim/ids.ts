/**
 * Identifiers the simulated VIM gives the instance-scoped records. VNFC ids come from the engine
 * (the grant's COMPUTE addResource id) and survive heal, resize and rebuild; the records hanging
 * off a VNFC derive their ids from it, so they survive too. VL, link-port and external-CP ids are
 * the VIM resource ids (they change when the resource is re-created).
 */
export const vnfcCpInfoId = (cpdId: string, vnfcId: string) => `${cpdId}-${vnfcId}`;
export const storageInfoId = (storageDescId: string, vnfcId: string) => `${storageDescId}-${vnfcId}`;
export const vnfcInfoId = (vduId: string, vnfcId: string) => `${vduId}-${vnfcId}`;
export const serverName = (vduId: string, vnfcId: string) => `${vduId}-${vnfcId.slice(0, 8)}`;

export const RESOURCE_TYPES = {
  server: 'OS::Nova::Server',
  volume: 'OS::Cinder::Volume',
  network: 'OS::Neutron::Net',
  port: 'OS::Neutron::Port',
} as const;
