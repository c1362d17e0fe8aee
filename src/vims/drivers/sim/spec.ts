/**
 * The desired state of an instance's stack — what every operation computes from the instance
 * before it (`ctx.current`), its plan and the grant — and the builders of its VNFC entries.
 * `reconcile.ts` then makes the simulated VIM match it, so retries resume where they stopped.
 */

import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../../sol/instance-model.ts';
import type { Flavour, SoftwareImage, Vdu } from '../../../vnfd/model/vnfd.ts';
import { type GrantedResources, InfraError, type NewVnfc, type ServerGroup } from '../../contract.ts';
import type { CallScope } from './calls.ts';
import { vimCall } from './calls.ts';
import { type FlavorRow, findFlavor, flavorFor } from './flavors.ts';
import { storageInfoId } from './ids.ts';
import { findImage, imageFor } from './images.ts';
import type { StackParams } from './state.ts';

export interface StorageSpec {
  /** virtualStorageResourceInfo id. */
  id: string;
  descId: string;
  sizeGb: number;
  imageId: string | null;
  /** Re-create the volume (heal with storage) unless this op occ already did. */
  replace: boolean;
}

export interface VnfcSpec {
  id: string;
  vduId: string;
  /** Availability zone: the grant's for new VNFCs, the current one for existing VNFCs. */
  zone?: string;
  flavor: FlavorRow;
  imageId: string | null;
  storages: StorageSpec[];
  /** VduCp names, in VNFD order. */
  cps: string[];
  /** Re-create the server (heal) unless this op occ already did. */
  replaceServer: boolean;
}

export interface StackSpec {
  params: StackParams;
  /** Internal VL node names with a network of their own. */
  networks: string[];
  vnfcs: VnfcSpec[];
  /** The flavour CPs are resolved against (their VL or external VL). */
  flavour: Flavour;
  /** The grant's server groups: where new servers may go relative to their peers. */
  serverGroups: ServerGroup[];
}

export function findVdu(flavour: Flavour, vduId: string): Vdu {
  const vdu = flavour.vdus.find((v) => v.id === vduId);
  if (!vdu) {
    throw new InfraError(
      'INVALID_REQUEST',
      `VDU ${vduId} is not in flavour ${flavour.flavourId} of the VNFD.`,
    );
  }
  return vdu;
}

const softwareImage = (flavour: Flavour, id: string | undefined): SoftwareImage | undefined =>
  id === undefined ? undefined : flavour.softwareImages.find((i) => i.id === id);

/**
 * The grant's image (by id or name), else the VNFD's by name — registered when the VIM lacks it;
 * null when the node has no image.
 */
export async function resolveImage(
  scope: CallScope,
  grant: GrantedResources,
  flavour: Flavour,
  swImageId: string | undefined,
): Promise<string | null> {
  if (swImageId === undefined) return null;
  const granted = grant.softwareImages[swImageId];
  const sw = softwareImage(flavour, swImageId);
  if (granted) {
    const found = await findImage(scope.db.kysely, granted);
    if (found) return found.id;
    // A grant naming the VNFD's own image (Tacker's local NFVO does) gets it registered.
    if (!sw || (granted !== sw.name && granted !== sw.id)) {
      throw new InfraError('NOT_FOUND', `Image ${granted} could not be found.`);
    }
  }
  if (!sw) return null;
  const existing = await findImage(scope.db.kysely, sw.name);
  if (existing) return existing.id;
  return vimCall(scope, 'image.create', (j) => imageFor(j, undefined, sw, scope.opOccId, scope.instanceId));
}

const zoneOf = (grant: GrantedResources, resourceId: string): string | undefined => {
  const key = grant.zoneOf[resourceId];
  return key === undefined ? undefined : grant.zones.find((z) => z.id === key)?.zoneId;
};

/** A VNFC the engine wants created, in `flavour`. */
export async function newVnfcSpec(
  scope: CallScope,
  flavour: Flavour,
  grant: GrantedResources,
  vnfc: NewVnfc,
): Promise<VnfcSpec> {
  const vdu = findVdu(flavour, vnfc.vduId);
  const storages: StorageSpec[] = [];
  for (const descId of vnfc.storages) {
    const storage = flavour.storages.find((s) => s.id === descId);
    if (!storage)
      throw new InfraError('INVALID_REQUEST', `Storage ${descId} is not in flavour ${flavour.flavourId}.`);
    storages.push({
      id: storageInfoId(descId, vnfc.id),
      descId,
      sizeGb: Math.max(1, Math.ceil((storage.sizeOfStorage ?? 0) / 2 ** 30)),
      imageId: await resolveImage(scope, grant, flavour, storage.swImage),
      replace: false,
    });
  }
  return {
    id: vnfc.id,
    vduId: vnfc.vduId,
    zone: zoneOf(grant, vnfc.id),
    flavor: await flavorFor(scope.db.kysely, vdu, grant.computeFlavours[vnfc.vduId]),
    imageId: await resolveImage(scope, grant, flavour, vdu.swImage),
    storages,
    cps: vnfc.cps,
    replaceServer: false,
  };
}

/** A VNFC as the instance has it now (from its vnfcResourceInfo), to keep as it is. */
export async function currentVnfcSpec(
  scope: CallScope,
  info: InstantiatedVnfInfo,
  v: VnfcResourceInfo,
): Promise<VnfcSpec> {
  const meta = v.metadata ?? {};
  const flavorId = String(meta.flavor ?? '');
  const flavor = await findFlavor(scope.db.kysely, flavorId);
  if (!flavor) throw new InfraError('NOT_FOUND', `Flavor ${flavorId} could not be found.`, { vnfcId: v.id });
  const storages: StorageSpec[] = (v.storageResourceIds ?? []).map((sid) => {
    const s = info.virtualStorageResourceInfo?.find((x) => x.id === sid);
    if (!s) throw new InfraError('INVALID_REQUEST', `Storage ${sid} of VNFC ${v.id} is not in the instance.`);
    return {
      id: sid,
      descId: s.virtualStorageDescId,
      sizeGb: Number(s.metadata?.sizeGb ?? 1),
      imageId: (s.metadata?.image as string | undefined) ?? null,
      replace: false,
    };
  });
  return {
    id: v.id,
    vduId: v.vduId,
    zone: v.zoneId ?? (meta.zone as string | undefined),
    flavor,
    imageId: (meta.image as string | undefined) ?? null,
    storages,
    cps: (v.vnfcCpInfo ?? []).map((c) => c.cpdId),
    replaceServer: false,
  };
}

/** Every VNFC of `info`, kept as they are. */
export async function currentVnfcSpecs(
  scope: CallScope,
  info: InstantiatedVnfInfo | undefined,
): Promise<VnfcSpec[]> {
  const out: VnfcSpec[] = [];
  // Oldest first, so that re-created records keep the instance's order.
  for (const v of [...(info?.vnfcResourceInfo ?? [])].reverse())
    out.push(await currentVnfcSpec(scope, info as InstantiatedVnfInfo, v));
  return out;
}

export function paramsOf(
  info: InstantiatedVnfInfo | undefined,
  stored: StackParams | undefined,
): StackParams {
  if (stored) return stored;
  return {
    flavourId: info?.flavourId ?? '',
    scaleStatus: info?.scaleStatus ?? [],
    maxScaleLevels: info?.maxScaleLevels ?? [],
    extVirtualLinks: [],
    extManagedVirtualLinks: [],
    ...(info?.localizationLanguage ? { localizationLanguage: info.localizationLanguage } : {}),
  };
}

export const networksOf = (info: InstantiatedVnfInfo | undefined): string[] => [
  ...new Set((info?.vnfVirtualLinkResourceInfo ?? []).map((l) => l.vnfVirtualLinkDescId)),
];
