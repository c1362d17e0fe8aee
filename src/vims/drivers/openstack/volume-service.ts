/**
 * VNFCs with virtual storage need a volume service (Cinder) in the VIM's catalog. Without one
 * Heat would fail deep in the stack on the first OS::Cinder::Volume, after servers and ports were
 * made; the operation is refused up front instead, saying which VDU and storage ask for it.
 */
import { InfraError, type OperationContext } from '../../contract.ts';
import type { OpenStackClient } from './client/client.ts';

/** Catalog types Cinder registers under (its v3 API, the newer generic name, older ones). */
const VOLUME_TYPES = ['block-storage', 'volumev3', 'volumev2', 'volume'];

export async function requireVolumeService(
  client: OpenStackClient,
  ctx: OperationContext,
  vnfcs: readonly { vduId: string; storages: readonly string[] }[],
): Promise<void> {
  const wanting = vnfcs.filter((v) => v.storages.length > 0);
  if (!wanting.length) return;
  const { catalog } = await client.session.token(ctx.signal);
  if (catalog.some((e) => VOLUME_TYPES.includes(e.type))) return;
  const asked = [...new Set(wanting.map((v) => `${v.vduId} (${v.storages.join(', ')})`))].join(', ');
  throw new InfraError(
    'INVALID_REQUEST',
    `The VNFD gives virtual storage to ${asked}, but the VIM has no volume service: its Keystone catalog has no ${VOLUME_TYPES.join(' or ')} endpoint (Cinder). Use a VIM with Cinder, or a flavour whose VDUs have no virtual storage.`,
    { vduIds: [...new Set(wanting.map((v) => v.vduId))] },
  );
}
