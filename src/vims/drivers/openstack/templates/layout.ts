/**
 * Lays the design's VNFCs onto the top template. Per VNFC (Tacker's StandardUserData): each VDU
 * resource is removed and copied once per VNFC under `<VDU>-<vnfcId>`, with the keys of its
 * `nfv` paths suffixed the same way, so each VNFC has its own zone, flavour and image, a scale in
 * removes exactly the VNFCs named, and a VNFC's resources keep their name across updates (its id
 * survives heal). Per VDU (Tacker's default UserData): the template stays as written and each
 * VDU's values are shared, its group sized by `desired_capacity` (written in the template when it
 * is not an `nfv` value).
 */
import type { StackDesign, StackVnfc, VnfcLayout } from './design.ts';
import { isMapping } from './hot-yaml.ts';
import { nfvPaths, renameNfvKeys } from './nfv-paths.ts';
import type { NfvKey } from './nfv-values.ts';

/** Tacker's `lcm-operation-user-data-class` naming the per-VNFC convention. */
export const STANDARD_USER_DATA = 'StandardUserData';

/** The key of a VNFC's resources and nfv values: `<node>-<vnfcId>`. */
export const vnfcKey = (node: string, vnfcId: string) => `${node}-${vnfcId}`;

/**
 * Per VNFC when every VDU of the flavour is a top-level resource of a nested template type (the
 * shape StandardUserData needs); per VDU otherwise (VDUs inside scaling groups, or plain servers).
 */
export function chooseLayout(design: StackDesign): VnfcLayout {
  if (design.layout) return design.layout;
  const resources = isMapping(design.source.template.resources) ? design.source.template.resources : {};
  const perVnfc = design.flavour.vdus.every((vdu) => {
    const res = resources[vdu.id];
    return isMapping(res) && typeof res.type === 'string' && !res.type.startsWith('OS::');
  });
  return perVnfc ? 'per-vnfc' : 'per-vdu';
}

export interface Laid {
  template: Record<string, unknown>;
  keys: Map<string, NfvKey>;
  resources: Record<string, string[]>;
}

/** The nodes whose nfv keys belong to a VDU's VNFCs: the VDU, its storages and its CPs. */
function nodesOf(design: StackDesign, vduId: string): string[] {
  const vdu = design.flavour.vdus.find((v) => v.id === vduId);
  return [
    vduId,
    ...(vdu?.virtualStorages ?? []),
    ...design.flavour.vduCps.filter((c) => c.vdu === vduId).map((c) => c.id),
  ];
}

function byVdu(design: StackDesign): Map<string, StackVnfc[]> {
  const out = new Map<string, StackVnfc[]>(design.flavour.vdus.map((v) => [v.id, []]));
  for (const vnfc of design.vnfcs) out.get(vnfc.vduId)?.push(vnfc);
  return out;
}

export function layPerVnfc(design: StackDesign): Laid {
  const template = structuredClone(design.source.template);
  const resources = template.resources as Record<string, unknown>;
  const keys = new Map<string, NfvKey>();
  const laid: Record<string, string[]> = {};
  for (const [vduId, vnfcs] of byVdu(design)) {
    const written = resources[vduId];
    delete resources[vduId];
    const nodes = nodesOf(design, vduId);
    for (const node of nodes) {
      const siblings = vnfcs.map((v) => vnfcKey(node, v.id));
      for (const vnfc of vnfcs) keys.set(vnfcKey(node, vnfc.id), { node, vnfcs: [vnfc], siblings });
    }
    // Oldest first, so the template reads in creation order.
    for (const vnfc of [...vnfcs].reverse()) {
      const name = vnfcKey(vduId, vnfc.id);
      resources[name] = renameNfvKeys(written, (key) => (nodes.includes(key) ? vnfcKey(key, vnfc.id) : key));
      laid[name] = [vnfc.id];
    }
  }
  return { template, keys, resources: laid };
}

export function layPerVdu(design: StackDesign): Laid {
  const template = structuredClone(design.source.template);
  const resources = isMapping(template.resources) ? template.resources : {};
  const keys = new Map<string, NfvKey>();
  const laid: Record<string, string[]> = {};
  for (const [vduId, vnfcs] of byVdu(design)) {
    for (const node of nodesOf(design, vduId)) keys.set(node, { node, vnfcs, siblings: [] });
    // The resource holding the VDU: itself, or the group whose member is the VDU's template
    // (named after it, or given the VDU's nfv values).
    const holder =
      vduId in resources
        ? vduId
        : Object.keys(resources).find((name) => {
            const res = resources[name];
            const props = isMapping(res) && isMapping(res.properties) ? res.properties : {};
            // AutoScalingGroup's `resource`, ResourceGroup's `resource_def`.
            return [props.resource, props.resource_def].some(
              (member) =>
                isMapping(member) &&
                (member.type === `${vduId}.yaml` ||
                  nfvPaths(member).some((p) => p[1] === 'VDU' && p[2] === vduId)),
            );
          });
    if (!holder) continue;
    laid[holder] = vnfcs.map((v) => v.id);
    sizeGroup(resources[holder], vnfcs.length);
  }
  return { template, keys, resources: laid };
}

/** A group's size property: AutoScalingGroup's `desired_capacity`, ResourceGroup's `count`. */
const SIZE = {
  'OS::Heat::AutoScalingGroup': 'desired_capacity',
  'OS::Heat::ResourceGroup': 'count',
} as const;

/**
 * A group sized by the `nfv` parameter gets the count from it (nfv-values.ts). One sized by a
 * literal (Tacker v1 BaseHOTs, which scaled by signalling their ScalingPolicy resources) is given
 * the count in the template itself, so that every update states the whole VNF as for the rest.
 */
function sizeGroup(resource: unknown, count: number): void {
  if (!isMapping(resource) || !isMapping(resource.properties)) return;
  const key = SIZE[resource.type as keyof typeof SIZE];
  if (!key || nfvPaths(resource.properties[key]).length) return;
  resource.properties[key] = count;
}
