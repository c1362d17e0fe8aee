/**
 * A new VNFC as the grant places it: the zone of its COMPUTE resource (grant zoneOf), the
 * flavour and images the grant's vimAssets give for its VDU and storages. What the grant leaves
 * out the template values fall back on (the VNFD's flavour and image names, see nfv-values.ts).
 */
import type { GrantedResources, NewVnfc } from '../../../contract.ts';
import type { StackVnfc } from './design.ts';

/** The VIM zone name of a granted resource, if the grant placed it. */
export function grantedZone(grant: GrantedResources, resourceId: string): string | undefined {
  const key = grant.zoneOf[resourceId];
  return key === undefined ? undefined : grant.zones.find((z) => z.id === key)?.zoneId;
}

export function grantedVnfc(grant: GrantedResources, vnfc: NewVnfc): StackVnfc {
  const images: Record<string, string> = {};
  for (const node of [vnfc.vduId, ...vnfc.storages]) {
    const image = grant.softwareImages[node];
    if (image !== undefined) images[node] = image;
  }
  const zone = grantedZone(grant, vnfc.id);
  const flavourId = grant.computeFlavours[vnfc.vduId];
  return {
    id: vnfc.id,
    vduId: vnfc.vduId,
    ...(zone === undefined ? {} : { zone }),
    ...(flavourId === undefined ? {} : { flavour: flavourId }),
    images,
    cps: [...vnfc.cps],
    storages: [...vnfc.storages],
  };
}
