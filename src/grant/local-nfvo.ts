/**
 * The local NFVO: grants every request on the instance's VIM. New COMPUTE resources are spread
 * over the VIM's availability zones (the zone with fewest of the instance's VNFCs first, ties at
 * random so that instances spread too), honouring zone-scope affinity (same zone as the other
 * members; host-scope affinity too, as servers sharing a host share its zone) and anti-affinity
 * (a zone no other member uses); when a rule cannot be met the grant is refused, naming the rule,
 * unless the constraint allows best effort — then the VNFC is placed anyway and the grant says so
 * in `additionalParams.placementNotes`. Software images and compute flavours of the added
 * resources are returned as vimAssets.
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
import { allowedZones, bindsZones, ruleLabel, type ZoneRule } from './zone-rules.ts';

const zoneKey = (zone: string) => `zone-${zone}`;

/** The VIM flavour of a VDU: its requested additional capability (a Nova flavour name), if any. */
export function vimFlavourOf(flavour: Flavour, vduId: string): string | undefined {
  const vdu = flavour.vdus.find((v) => v.id === vduId);
  if (!vdu) return undefined;
  // A VDU that names no VIM flavour gets none in the grant: the driver then picks the smallest
  // flavour that fits its virtual_compute (inventing a name would fail at the VIM).
  return vdu.virtualCompute?.requestedAdditionalCapabilityNames[0] || undefined;
}

/**
 * The image a VDU or storage node is created from, when the VIM is to have it already (SwImage
 * id → image name at the VIM). An image the package carries is left out of the grant, as
 * Tacker's local NFVO uploads it rather than naming it: the VIM driver uploads it from the package.
 * A node whose sw_image_data names an image with no file at all is granted that name, as Tacker's
 * local NFVO assumes the VIM has it.
 */
function imageOf(flavour: Flavour, nodeId: string): { id: string; name: string } | undefined {
  const vdu = flavour.vdus.find((v) => v.id === nodeId);
  const storage = flavour.storages.find((s) => s.id === nodeId);
  const imageId = vdu?.swImage ?? storage?.swImage;
  const named = vdu?.swImageName ?? storage?.swImageName;
  if (!imageId) return named ? { id: nodeId, name: named } : undefined;
  const image = flavour.softwareImages.find((i) => i.id === imageId);
  return image && !image.imagePath ? { id: image.id, name: image.name } : undefined;
}

/** Where the local NFVO put the new VNFCs, and what it had to break to do so. */
interface ZoneChoice {
  zoneOf: Map<string, string>;
  /** Best-effort placements that break a rule, said in the grant and the logs. */
  notes: string[];
}

/** A constraint in the VNFD's terms (scope `zone`, kind `anti-affinity`). */
const vnfdTerms = (c: PlacementConstraint) => ({
  scope: c.scope.toLowerCase(),
  kind: c.affinityOrAntiAffinity === 'AFFINITY' ? ('affinity' as const) : ('anti-affinity' as const),
});

/** The name of the VNFD rule a constraint on `r` comes from (constraints carry none). */
function ruleName(c: PlacementConstraint, r: ResourceDefinition, flavour: Flavour): string {
  const { scope, kind } = vnfdTerms(c);
  const names = flavour.placementRules
    .filter(
      (rule) => rule.kind === kind && rule.scope === scope && rule.members.includes(r.resourceTemplateId),
    )
    .map((rule) => rule.name);
  return names.join(', ') || `${scope} ${kind}`;
}

function assignZones(request: GrantRequest, context: GrantContext): ZoneChoice {
  const assigned = new Map<string, string>(Object.entries(context.existingZones));
  const zones = context.zones;
  const out: ZoneChoice = { zoneOf: new Map(), notes: [] };
  if (zones.length === 0) return out;
  const load = new Map<string, number>(zones.map((z) => [z, 0]));
  for (const z of Object.values(context.existingZones)) load.set(z, (load.get(z) ?? 0) + 1);
  const binding = (request.placementConstraints ?? []).filter((c) => bindsZones(vnfdTerms(c)));
  for (const r of request.addResources ?? []) {
    if (r.type !== 'COMPUTE') continue;
    const rules: ZoneRule[] = binding
      .filter((c) => c.resource.some((ref) => ref.idType === 'GRANT' && ref.resourceId === r.id))
      .map((c) => ({
        ...vnfdTerms(c),
        name: ruleName(c, r, context.flavour),
        peerZones: c.resource
          .filter((ref) => ref.resourceId !== r.id)
          .map((ref) => assigned.get(ref.resourceId))
          .filter((z): z is string => z !== undefined),
        fallbackBestEffort: c.fallbackBestEffort === true,
      }));
    const verdict = allowedZones(zones, rules);
    if ('refused' in verdict) throw new GrantRefused(refusal(verdict.refused, r, zones));
    // The least loaded zone allowed; ties broken at random so that new instances spread over zones.
    const least = Math.min(...verdict.zones.map((z) => load.get(z) ?? 0));
    const lightest = verdict.zones.filter((z) => (load.get(z) ?? 0) === least);
    const zone = lightest[randomInt(lightest.length)];
    load.set(zone, (load.get(zone) ?? 0) + 1);
    assigned.set(r.id, zone);
    out.zoneOf.set(r.id, zone);
    for (const rule of verdict.broken) {
      out.notes.push(
        `${r.resourceTemplateId} (${r.id}) placed in zone ${zone} although no zone satisfies its ${ruleLabel(rule)} (fallbackBestEffort).`,
      );
    }
  }
  return out;
}

function refusal(rule: ZoneRule, r: ResourceDefinition, zones: readonly string[]): string {
  const peers = [...new Set(rule.peerZones)].sort();
  return (
    `No availability zone satisfies the ${ruleLabel(rule)} for ${r.resourceTemplateId} (${r.id}): ` +
    `its other members are in ${peers.join(', ') || 'no zone yet'} and the VIM has ${zones.length} zone(s): ${zones.join(', ')}. ` +
    'Add zones to the VIM, or allow best effort (additionalParams.fallbackBestEffort: true, or lcm.placementFallbackBestEffort).'
  );
}

export class LocalNfvo implements Nfvo {
  async grant(request: GrantRequest, context: GrantContext): Promise<Grant> {
    const id = randomUUID();
    const vimConnectionId = context.vim.connectionId;
    const { zoneOf, notes } = assignZones(request, context);
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
    if (notes.length) grant.additionalParams = { placementNotes: notes };
    if (images.size || flavours.size) {
      grant.vimAssets = {
        ...(flavours.size ? { computeResourceFlavours: [...flavours.values()] } : {}),
        ...(images.size ? { softwareImages: [...images.values()] } : {}),
      };
    }
    return grant;
  }
}
