/**
 * Connectivity of a flavour: VDU connection points (bound to a VDU, linked to an internal VL
 * or left for an external one), internal virtual links and external connection points.
 */

import { nodesOfType, requirementTarget, type TemplateScope } from './scope.ts';
import { SOL001 } from './sol001.ts';
import { num, rec, str, strList } from './values.ts';
import type { ExtCp, VduCp, VirtualLink } from './vnfd.ts';

export function readVduCps(scope: TemplateScope): VduCp[] {
  return nodesOfType(scope, SOL001.vduCp).map((node) => ({
    id: node.name,
    type: node.type,
    vdu: requirementTarget(node, 'virtual_binding'),
    virtualLink: requirementTarget(node, 'virtual_link'),
    order: num(node.properties.order),
    layerProtocols: strList(node.properties.layer_protocols),
    vnicType: str(node.properties.vnic_type),
    loc: node.loc,
  }));
}

export function readVirtualLinks(scope: TemplateScope): VirtualLink[] {
  return nodesOfType(scope, SOL001.virtualLink).map((node) => {
    const profile = node.properties.vl_profile;
    return {
      id: node.name,
      type: node.type,
      description: str(node.properties.description),
      layerProtocols: strList(rec(node.properties.connectivity_type).layer_protocols),
      vlProfile: profile === undefined ? undefined : rec(profile),
      loc: node.loc,
    };
  });
}

/**
 * External CPs; the external link is the `external_virtual_link` requirement, or the VNF
 * requirement that substitution_mappings maps to this CP (`virtual_link_external: [CP, …]`).
 */
export function readExtCps(scope: TemplateScope, externalRequirements: Record<string, string[]>): ExtCp[] {
  const mappedTo = new Map<string, string>();
  for (const [requirement, [node]] of Object.entries(externalRequirements)) {
    if (node !== undefined) mappedTo.set(node, requirement);
  }
  return nodesOfType(scope, SOL001.extCp).map((node) => ({
    id: node.name,
    type: node.type,
    internalVirtualLink: requirementTarget(node, 'internal_virtual_link'),
    externalVirtualLink: requirementTarget(node, 'external_virtual_link') ?? mappedTo.get(node.name),
    layerProtocols: strList(node.properties.layer_protocols),
    loc: node.loc,
  }));
}
