/**
 * The VNF node (`tosca.nodes.nfv.VNF` or derived) of the entry template: the VnfPkgInfo
 * identity (vnfdId, provider, product, versions) and the VNF-level properties LCM needs
 * (configurable properties and modifiable attributes are read, unlike Tacker, §12.16).
 */
import type { Diagnostics } from '../diagnostics.ts';
import type { NodeTemplate } from '../tosca/model.ts';
import { nodesOfType, type TemplateScope } from './scope.ts';
import { SOL001 } from './sol001.ts';
import { isRecord, str, strList } from './values.ts';
import type { VnfProperties } from './vnfd.ts';

/** The properties a VNFD must give for a package to have an identity. */
const IDENTITY = [
  ['descriptor_id', 'descriptorId'],
  ['descriptor_version', 'descriptorVersion'],
  ['provider', 'provider'],
  ['product_name', 'productName'],
  ['software_version', 'softwareVersion'],
] as const;

/** The first VNF node of a template, if any. */
export function findVnfNode(scope: TemplateScope): NodeTemplate | undefined {
  return nodesOfType(scope, SOL001.vnf)[0];
}

/**
 * A property value of the VNF node; when it is still an unevaluated function (e.g. a
 * `get_input` without a value), the type's default, as Tacker does for descriptor_id.
 */
function propertyValue(scope: TemplateScope, node: NodeTemplate, name: string): unknown {
  const v = node.properties[name];
  if (!isRecord(v)) return v;
  for (const t of scope.types.chain(node.type)) {
    const def = scope.types.get(t)?.properties[name];
    if (def?.default !== undefined) return def.default;
  }
  return undefined;
}

/** Reads the VNF node of the entry template; errors name each missing identity property. */
export function readVnfNode(scope: TemplateScope, diags: Diagnostics): VnfProperties | undefined {
  const node = findVnfNode(scope);
  if (!node) {
    diags.error(
      'VNFD_VNF_NODE_MISSING',
      `VNF properties are mandatory: the entry template ${scope.template.file} has no node template of type ${SOL001.vnf} (or derived), so the package has no descriptor_id`,
      { file: scope.template.file },
    );
    return undefined;
  }
  const identity: Record<string, string> = {};
  let complete = true;
  for (const [prop, field] of IDENTITY) {
    // Written on the node, as Tacker reads them: a value that only comes from a type default
    // does not identify the package (a flavour file used as entry has such a VNF node).
    const written = node.propertyLocs[prop] !== undefined;
    const value = written ? str(propertyValue(scope, node, prop)) : undefined;
    if (value === undefined || value === '') {
      complete = false;
      diags.error(
        'VNFD_VNF_PROPERTY_MISSING',
        `the VNF node ${node.name} in the entry template ${scope.template.file} does not set ${prop}; descriptor_id, descriptor_version, provider, product_name and software_version are required to onboard the package`,
        node.propertyLocs[prop] ?? node.loc,
      );
    } else {
      identity[field] = value;
    }
  }
  if (!complete) return undefined;
  const p = node.properties;
  const flavourWritten = node.propertyLocs.flavour_id !== undefined;
  return {
    nodeName: node.name,
    nodeType: node.type,
    descriptorId: identity.descriptorId,
    descriptorVersion: identity.descriptorVersion,
    provider: identity.provider,
    productName: identity.productName,
    softwareVersion: identity.softwareVersion,
    productInfoName: str(p.product_info_name),
    productInfoDescription: str(p.product_info_description),
    vnfmInfo: strList(p.vnfm_info),
    localizationLanguages: strList(p.localization_languages),
    defaultLocalizationLanguage: str(p.default_localization_language),
    configurableProperties: isRecord(p.configurable_properties) ? p.configurable_properties : undefined,
    modifiableAttributes: isRecord(p.modifiable_attributes) ? p.modifiable_attributes : undefined,
    lcmOperationsConfiguration: isRecord(p.lcm_operations_configuration)
      ? p.lcm_operations_configuration
      : undefined,
    monitoringParameters: p.monitoring_parameters,
    // Only a flavour_id written in the template counts (not a type default): see flavours.ts.
    flavourId: flavourWritten && typeof p.flavour_id === 'string' ? p.flavour_id : undefined,
    flavourDescription: str(p.flavour_description),
    loc: node.loc,
  };
}
