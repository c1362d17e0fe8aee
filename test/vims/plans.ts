/**
 * Plans for infra-driver tests, built from the real VNFDs of the shared Tacker samples the way
 * the LCM engine builds them: counts from instantiation levels (else initial deltas), a VNFC per
 * instance with its storages and VduCps, every internal VL, external CPs on one external VL,
 * scale status and max levels from the scaling aspects.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type {
  ExtVirtualLinkData,
  GrantedResources,
  InstantiatePlan,
  NewVnfc,
  OperationContext,
  VimConnection,
} from '../../src/vims/contract.ts';
import type { Flavour, Vnfd } from '../../src/vnfd/model/vnfd.ts';
import { readPackage } from '../../src/vnfd/read-package.ts';
import { SAMPLES_DIR } from '../support/samples.ts';

/** The rich sample: two VDUs (one scalable, with a volume each), three internal VLs, external CPs. */
export const MAIN_SAMPLE = 'sol_v2_common__basic_lcms_max_individual_vnfc.zip';
/** change_vnfpkg: from a VDU without image to the same VDU on a new image. */
export const PKG_FROM = 'sol_v2_common__basic_lcms_min_individual_vnfc.zip';
export const PKG_TO = 'sol_v2_common__change_vnfpkg_or_update_min_individual_vnfc.zip';
/** Two flavours: `simple` (no volumes) and `volume`. */
export const TWO_FLAVOURS = 'sol_v2_common__test_instantiate_vnf_with_old_image_or_volume.zip';

const cache = new Map<string, Promise<Vnfd>>();

export function sampleVnfd(file: string): Promise<Vnfd> {
  let found = cache.get(file);
  if (!found) {
    found = readPackage(join(SAMPLES_DIR, file), { imageHashMismatch: 'warning' }).then((r) => {
      if (!r.vnfd) throw new Error(`${file}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
      return r.vnfd;
    });
    cache.set(file, found);
  }
  return found;
}

export function flavourOf(vnfd: Vnfd, flavourId = 'simple'): Flavour {
  const f = vnfd.flavours.find((x) => x.flavourId === flavourId);
  if (!f) throw new Error(`no flavour ${flavourId}`);
  return f;
}

export function newVnfc(flavour: Flavour, vduId: string): NewVnfc {
  const vdu = flavour.vdus.find((v) => v.id === vduId);
  if (!vdu) throw new Error(`no VDU ${vduId}`);
  return {
    id: randomUUID(),
    vduId,
    storages: vdu.virtualStorages,
    cps: flavour.vduCps
      .filter((c) => c.vdu === vduId)
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.id.localeCompare(b.id))
      .map((c) => c.id),
  };
}

/** One external VL carrying every VduCp with no internal VL, each with one dynamic address. */
export function extVirtualLinks(
  flavour: Flavour,
  networkId = `ext-net-${randomUUID().slice(0, 8)}`,
): ExtVirtualLinkData[] {
  const cps = flavour.vduCps.filter((c) => !c.virtualLink);
  if (cps.length === 0) return [];
  return [
    {
      id: `ext-vl-${networkId}`,
      resourceId: networkId,
      extCps: cps.map((c) => ({
        cpdId: c.id,
        cpConfig: {
          [`${c.id}-config`]: {
            cpProtocolData: [
              {
                layerProtocol: 'IP_OVER_ETHERNET',
                ipOverEthernet: { ipAddresses: [{ type: 'IPV4', numDynamicAddresses: 1 }] },
              },
            ],
          },
        },
      })),
    },
  ];
}

export function instantiatePlan(vnfd: Vnfd, flavourId = 'simple', levelId?: string): InstantiatePlan {
  const flavour = flavourOf(vnfd, flavourId);
  const levels = flavour.instantiationLevels;
  const level = levels?.levels.find((l) => l.id === (levelId ?? levels.defaultLevel));
  const vnfcs: NewVnfc[] = [];
  for (const vdu of flavour.vdus) {
    const count =
      level?.vduInstances[vdu.id] ?? flavour.initialDeltas[vdu.id] ?? vdu.vduProfile.minNumberOfInstances;
    for (let i = 0; i < count; i++) vnfcs.push(newVnfc(flavour, vdu.id));
  }
  return {
    ...(level ? { instantiationLevelId: level.id } : {}),
    vnfcs,
    virtualLinks: flavour.virtualLinks.map((l) => l.id),
    extVirtualLinks: extVirtualLinks(flavour),
    extManagedVirtualLinks: [],
    scaleStatus: flavour.scalingAspects.map((a) => ({
      aspectId: a.id,
      scaleLevel: level?.scaleInfo[a.id] ?? 0,
    })),
    maxScaleLevels: flavour.scalingAspects.map((a) => ({ aspectId: a.id, scaleLevel: a.maxScaleLevel })),
  };
}

/** A grant placing every new VNFC in `zone` (no zone: the VIM chooses), with no VIM assets. */
export function grantFor(vnfcIds: string[], zone?: string): GrantedResources {
  return {
    grantId: randomUUID(),
    zones: zone ? [{ id: `z-${zone}`, zoneId: zone }] : [],
    zoneOf: zone ? Object.fromEntries(vnfcIds.map((id) => [id, `z-${zone}`])) : {},
    softwareImages: {},
    computeFlavours: {},
    serverGroups: [],
  };
}

export function context(
  vim: VimConnection,
  vnfd: Vnfd,
  fields: Partial<OperationContext> & { instanceId: string },
): OperationContext {
  return {
    vim,
    opOccId: randomUUID(),
    grant: grantFor([]),
    signal: new AbortController().signal,
    vnfd,
    flavourId: 'simple',
    ...fields,
  };
}
