/** The drift sync admin call (/bosun/v1/vnf_instances/{id}/sync) of `bosun vnf sync`. */
import type { ApiClient } from './client.ts';

export interface SyncOutcome {
  synced: boolean;
  /** The automatically invoked MODIFY_INFO op occ recording the change. */
  vnfLcmOpOccId?: string;
  reason?: 'UNCHANGED' | 'NOT_INSTANTIATED' | 'BUSY' | 'NOT_SUPPORTED';
  instantiatedVnfInfo?: {
    vnfcResourceInfo?: { id: string; vduId: string; computeResource: { resourceId: string } }[];
  };
}

export const syncInstance = (api: ApiClient, id: string) =>
  api.json<SyncOutcome>('POST', `/bosun/v1/vnf_instances/${encodeURIComponent(id)}/sync`, { json: {} });
