/**
 * What the Kubernetes driver's operations share: the outbound policy the API server must pass,
 * the package blobs (manifests and charts are read from them), the operator's limits and the
 * Helm runner, and a client for a VIM connection.
 */
import type { Config } from '../../../config/load.ts';
import type { OutboundPolicy } from '../../../net/address-policy.ts';
import type { BlobStore } from '../../../store/blobs/blob-store.ts';
import type { VimConnection } from '../../contract.ts';
import { type KubeClient, withKubeClient } from './client/client.ts';

export type KubernetesConfig = Config['kubernetes'];

export interface KubernetesDeps {
  policy: OutboundPolicy;
  blobs?: BlobStore;
  config: KubernetesConfig;
}

export const withClient = <T>(
  deps: KubernetesDeps,
  vim: VimConnection,
  work: (c: KubeClient) => Promise<T>,
) => withKubeClient(vim, deps.policy, work);
