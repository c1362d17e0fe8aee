/**
 * The local NFVO: grants every request on the instance's VIM. New COMPUTE resources are spread
 * over the VIM's availability zones (the zone with fewest of the instance's VNFCs first, ties at
 * random so that instances spread too), honouring zone-scope affinity
 * (same zone as the other members) and anti-affinity (a zone no other member uses); when a rule
 * cannot be met the grant is refused unless the constraint allows best effort. Software images
 * and compute flavours of the added resources are returned as vimAssets.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Flavour } from '../vnfd/model/vnfd.ts';
import { type GrantContext, GrantRefused, type Nfvo } from './nfvo.ts';
import type {
  Grant,
  GrantInfo,
  GrantRequest,
  PlacementConstraint,
  ResourceDefinition,
  VimComputeResourceFlavour,
  VimSoftwareImage,
} from './types.ts';

const zoneKey = (zone: string) => `zone-${zone}`;

/** The VIM flavour of a VDU: its requested additional capability (a Nova flavour name), if any. */
export function vimFlavourOf(flavour: Flavour, vduId: string): string | undefined {
  const vdu = flavour.vdus.find((v) => v.id === vduId);
  if (!vdu) return undefined;
  // A VDU that names no VIM flavour gets none in the grant: the driver then picks the smallest
  // flavour that fits its virtual_compute (inventing a name would fail at the VIM).
  return vdu.virtualCompute?.requestedAdditionalCapabilityNames[0] || undefined;
}

/** The image a VDU or storage node is created from (SwImage id → image name at the VIM). */
function imageOf(flavour: Flavour, nodeId: string): { id: string; name: string } | undefined {
  const vdu = flavour.vdus.find((v) => v.id === nodeId);
  const storage = flavour.storages.find((s) => s.id === nodeId);
  const imageId = vdu?.swImage ?? storage?.swImage;
  if (!imageId) return undefined;
  const image = flavour.softwareImages.find((i) => i.id === imageId);
  return image ? { id: image.id, name: image.name } : undefined;
}

function assignZones(request: GrantRequest, context: GrantContext): Map<string, string> {
  const assigned = new Map<string, string>(Object.entries(context.existingZones));
  const zones = context.zones;
  if (zones.length === 0) return new Map();
  const load = new Map<string, number>(zones.map((z) => [z, 0]));
  for (const z of Object.values(context.existingZones)) load.set(z, (load.get(z) ?? 0) + 1);
  const zoneRules = (request.placementConstraints ?? []).filter((c) => c.scope === 'ZONE');
  const out = new Map<string, string>();
  for (const r of request.addResources ?? []) {
    if (r.type !== 'COMPUTE') continue;
    const rules = zoneRules.filter((c) =>
      c.resource.some((ref) => ref.idType === 'GRANT' && ref.resourceId === r.id),
    );
    let candidates = [...zones];
    let refusal: string | undefined;
    for (const rule of rules) {
      const others = rule.resource
        .filter((ref) => ref.resourceId !== r.id)
        .map((ref) => assigned.get(ref.resourceId))
        .filter((z): z is string => z !== undefined);
      const next =
        rule.affinityOrAntiAffinity === 'AFFINITY'
          ? others.length
            ? candidates.filter((z) => z === others[0])
            : candidates
          : candidates.filter((z) => !others.includes(z));
      if (next.length === 0 && !rule.fallbackBestEffort) {
        refusal = describe(rule, r, zones);
      }
      if (next.length > 0) candidates = next;
    }
    if (refusal) throw new GrantRefused(refusal);
    // The least loaded candidate; ties broken at random so that new instances spread over zones.
    const least = Math.min(...candidates.map((z) => load.get(z) ?? 0));
    const lightest = candidates.filter((z) => (load.get(z) ?? 0) === least);
    const zone = lightest[randomInt(lightest.length)];
    load.set(zone, (load.get(zone) ?? 0) + 1);
    assigned.set(r.id, zone);
    out.set(r.id, zone);
  }
  return out;
}

function describe(rule: PlacementConstraint, r: ResourceDefinition, zones: readonly string[]): string {
  const kind = rule.affinityOrAntiAffinity === 'AFFINITY' ? 'affinity' : 'anti-affinity';
  return `No availability zone satisfies the zone ${kind} of ${r.resourceTemplateId} (${r.id}) among ${rule.resource.length} resources; the VIM has ${zones.length} zone(s): ${zones.join(', ') || 'none'}.`;
}

export class LocalNfvo implements Nfvo {
  async grant(request: GrantRequest, context: GrantContext): Promise<Grant> {
    const id = randomUUID();
    const vimConnectionId = context.vim.connectionId;
    const zoneOf = assignZones(request, context);
    const usedZones = [...new Set(zoneOf.values())];
    const info = (r: ResourceDefinition): GrantInfo => ({
      resourceDefinitionId: r.id,
      vimConnectionId,
      ...(zoneOf.has(r.id) ? { zoneId: zoneKey(zoneOf.get(r.id) as string) } : {}),
    });
    const images = new Map<string, VimSoftwareImage>();
    const flavours = new Map<string, VimComputeResourceFlavour>();
    for (const r of [...(request.addResources ?? []), ...(request.updateResources ?? [])]) {
      if (r.type !== 'COMPUTE' && r.type !== 'STORAGE') continue;
      const image = imageOf(context.flavour, r.resourceTemplateId);
      if (image && !images.has(r.resourceTemplateId)) {
        images.set(r.resourceTemplateId, {
          vnfdSoftwareImageId: r.resourceTemplateId,
          vimSoftwareImageId: image.name,
          vimConnectionId,
        });
      }
      const vimFlavour =
        r.type === 'COMPUTE' ? vimFlavourOf(context.flavour, r.resourceTemplateId) : undefined;
      if (vimFlavour && !flavours.has(r.resourceTemplateId)) {
        flavours.set(r.resourceTemplateId, {
          vnfdVirtualComputeDescId: r.resourceTemplateId,
          vimFlavourId: vimFlavour,
          vimConnectionId,
        });
      }
    }
    const grant: Grant = {
      id,
      vnfInstanceId: request.vnfInstanceId,
      vnfLcmOpOccId: request.vnfLcmOpOccId,
      vimConnectionInfo: {
        [vimConnectionId]: {
          ...(context.vim.vimId ? { vimId: context.vim.vimId } : {}),
          vimType: context.vim.vimType,
        },
      },
      _links: {
        self: { href: `${context.grantsPath}/${id}` },
        vnfLcmOpOcc: request._links.vnfLcmOpOcc,
        vnfInstance: request._links.vnfInstance,
      },
    };
    if (usedZones.length) {
      grant.zones = usedZones.map((z) => ({ id: zoneKey(z), zoneId: z, vimConnectionId }));
    }
    if (request.addResources?.length) grant.addResources = request.addResources.map(info);
    if (request.removeResources?.length) grant.removeResources = request.removeResources.map(info);
    if (request.updateResources?.length) grant.updateResources = request.updateResources.map(info);
    if (images.size || flavours.size) {
      grant.vimAssets = {
        ...(flavours.size ? { computeResourceFlavours: [...flavours.values()] } : {}),
        ...(images.size ? { softwareImages: [...images.values()] } : {}),
      };
    }
    return grant;
  }
}
