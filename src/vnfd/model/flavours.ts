/**
 * Deployment flavour discovery: every template whose substitution_mappings substitute a VNF
 * node type is a flavour, identified by `substitution_mappings.properties.flavour_id`
 * (Tacker §3.1 step 6). A single-file VNFD may instead write `flavour_id` on its VNF node;
 * a type default does not count (Tacker rejects a package that only has one).
 */
import type { Diagnostics } from '../diagnostics.ts';
import type { ToscaLoadResult } from '../tosca/model.ts';
import { scopeOf, type TemplateScope } from './scope.ts';
import { SOL001 } from './sol001.ts';
import { findVnfNode } from './vnf-node.ts';

/** A flavour found in the templates, before its content is extracted. */
export interface FlavourSource {
  /** `flavour_id`. */
  flavourId: string;
  /** The flavour template with the package types. */
  scope: TemplateScope;
  /** `substitution_mappings.node_type`. */
  nodeType: string;
  /** `substitution_mappings.requirements`. */
  externalRequirements: Record<string, string[]>;
  /** `flavour_description` of the flavour's VNF node, when written. */
  description?: string;
}

export function discoverFlavours(tosca: ToscaLoadResult, diags: Diagnostics): FlavourSource[] {
  const found: FlavourSource[] = [];
  const seen = new Map<string, string>();
  for (const template of tosca.templates) {
    const mappings = template.topology?.substitutionMappings;
    if (!mappings || !tosca.types.isA(mappings.nodeType, SOL001.vnf)) continue;
    const scope = scopeOf(template, tosca.types);
    const vnfNode = findVnfNode(scope);
    let flavourId: unknown = mappings.properties.flavour_id;
    if (flavourId === undefined && template === tosca.entry && vnfNode?.propertyLocs.flavour_id) {
      flavourId = vnfNode.properties.flavour_id;
    }
    if (flavourId === undefined) continue;
    if (typeof flavourId !== 'string' || flavourId === '') {
      diags.error(
        'VNFD_FLAVOUR_ID_INVALID',
        `flavour_id should be a non-empty string in ${template.file}`,
        mappings.loc,
      );
      continue;
    }
    const other = seen.get(flavourId);
    if (other !== undefined) {
      diags.error(
        'VNFD_FLAVOUR_DUPLICATE',
        `flavour ${flavourId} is defined twice: in ${other} and in ${template.file}`,
        mappings.loc,
      );
      continue;
    }
    seen.set(flavourId, template.file);
    const description = vnfNode?.properties.flavour_description;
    found.push({
      flavourId,
      scope,
      nodeType: mappings.nodeType,
      externalRequirements: mappings.requirements,
      description: typeof description === 'string' ? description : undefined,
    });
  }
  if (found.length === 0) {
    diags.error(
      'VNFD_NO_FLAVOUR',
      `No VNF flavours are available: no template has substitution_mappings for a ${SOL001.vnf} type with properties.flavour_id (entry ${tosca.entry.file})`,
      { file: tosca.entry.file },
    );
  }
  return found.sort((a, b) => (a.flavourId < b.flavourId ? -1 : a.flavourId > b.flavourId ? 1 : 0));
}
