/**
 * What the OpenStack driver's operations share: the database (the images table), the blob store
 * (package images), the outbound policy the VIM's endpoints must pass, and the client of a VIM
 * connection with the key of its cloud and project.
 */
import type { OutboundPolicy } from '../../../net/address-policy.ts';
import type { BlobStore } from '../../../store/blobs/blob-store.ts';
import type { Database } from '../../../store/db/database.ts';
import type { VimConnection } from '../../contract.ts';
import { type OpenStackClient, openStackClient } from './client/client.ts';

export interface OpenStackDeps {
  db: Database;
  blobs?: BlobStore;
  policy: OutboundPolicy;
}

export function clientOf(deps: OpenStackDeps, vim: VimConnection): OpenStackClient {
  return openStackClient(vim, deps.policy);
}

/** The cloud and project a client works in (images are recorded per project). */
export async function cloudKeyOf(client: OpenStackClient, signal?: AbortSignal): Promise<string> {
  return `${client.session.credentials.authUrl}|${(await client.projectId(signal)) ?? ''}`;
}
