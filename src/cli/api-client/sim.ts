/** The simulated VIM admin API (/bosun/v1/sim) calls of the CLI. */

import type { SimFault } from '../../vims/drivers/sim/faults.ts';
import type { ServerHealth } from '../../vims/drivers/sim/health.ts';
import type { SimHost, SimServer, SimZone } from '../../vims/drivers/sim/inventory.ts';
import type { ApiClient } from './client.ts';

export type { ServerHealth, SimFault, SimHost, SimServer, SimZone };

export const SIM = '/bosun/v1/sim';

const seg = (s: string) => encodeURIComponent(s);
const query = (params: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
};

export const listZones = (api: ApiClient) => api.json<SimZone[]>('GET', `${SIM}/zones`);
export const setZone = (api: ApiClient, zone: string, action: 'exhaust' | 'restore') =>
  api.json<SimZone>('POST', `${SIM}/zones/${seg(zone)}/${action}`);

export const listHosts = (api: ApiClient, zone?: string) =>
  api.json<SimHost[]>('GET', `${SIM}/hosts${query({ zone })}`);
export const setHost = (api: ApiClient, host: string, state: 'down' | 'up') =>
  api.json<SimHost & { serversAffected: number }>('POST', `${SIM}/hosts/${seg(host)}/${state}`);

export const listServers = (api: ApiClient, filter: { instanceId?: string; host?: string; zone?: string }) =>
  api.json<SimServer[]>('GET', `${SIM}/servers${query(filter)}`);
export const getServer = (api: ApiClient, id: string) =>
  api.json<SimServer>('GET', `${SIM}/servers/${seg(id)}`);
export const crashServer = (api: ApiClient, id: string, reason?: string) =>
  api.json<SimServer>('POST', `${SIM}/servers/${seg(id)}/crash`, { json: reason ? { reason } : {} });

export const health = (api: ApiClient, instanceId?: string) =>
  api.json<ServerHealth[]>('GET', `${SIM}/health${query({ instanceId })}`);

export const listFlavors = (api: ApiClient) =>
  api.json<{ id: string; name: string; vcpus: number; ramMb: number; diskGb: number }[]>(
    'GET',
    `${SIM}/flavors`,
  );
export const listImages = (api: ApiClient) =>
  api.json<{ id: string; name: string; instanceId?: string; size: number }[]>('GET', `${SIM}/images`);

export const listFaults = (api: ApiClient) => api.json<SimFault[]>('GET', `${SIM}/faults`);
export const addFault = (
  api: ApiClient,
  fault: { kind: string; action: 'fail' | 'hang'; message?: string; count?: number; timeoutMs?: number },
) => api.json<SimFault>('POST', `${SIM}/faults`, { json: fault });
export const removeFault = (api: ApiClient, id: string) => api.request('DELETE', `${SIM}/faults/${seg(id)}`);
export const clearFaults = (api: ApiClient) => api.json<{ removed: number }>('DELETE', `${SIM}/faults`);
