/** The cluster status admin API (/bosun/v1/status) call of the CLI. */
import type { ClusterStatus, QueueStatus } from '../../http/ops/cluster-status.ts';
import type { Replica } from '../../store/replicas/registry.ts';
import type { ApiClient } from './client.ts';

export type { ClusterStatus, QueueStatus, Replica };

export const STATUS = '/bosun/v1/status';

export const clusterStatus = (api: ApiClient) => api.json<ClusterStatus>('GET', STATUS);
