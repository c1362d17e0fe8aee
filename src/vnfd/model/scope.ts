/**
 * One service template seen with the package's types: the unit every area extractor
 * (VDUs, connectivity, policies…) works on, so they share one way of finding nodes and
 * policies by (derived) type.
 */
import type {
  NodeTemplate,
  PolicyTemplate,
  ServiceTemplate,
  TopologyTemplate,
  TypeRegistry,
} from '../tosca/model.ts';

export interface TemplateScope {
  /** The template (a flavour file, or the entry file of a single-file VNFD). */
  template: ServiceTemplate;
  /** Its topology (empty when the template has none). */
  topology: TopologyTemplate;
  /** Every type visible from the entry. */
  types: TypeRegistry;
}

const EMPTY_TOPOLOGY: TopologyTemplate = { inputs: {}, nodeTemplates: {}, groups: [], policies: [] };

export function scopeOf(template: ServiceTemplate, types: TypeRegistry): TemplateScope {
  return { template, topology: template.topology ?? EMPTY_TOPOLOGY, types };
}

/** Node templates whose type is `type` or derives from it, in the order written. */
export function nodesOfType(scope: TemplateScope, type: string): NodeTemplate[] {
  return Object.values(scope.topology.nodeTemplates).filter((n) => scope.types.isA(n.type, type));
}

/** Policies whose type is `type` or derives from it, in the order written. */
export function policiesOfType(scope: TemplateScope, type: string): PolicyTemplate[] {
  return scope.topology.policies.filter((p) => scope.types.isA(p.type, type));
}

/** Targets of a node's requirements with the given name. */
export function requirementTargets(node: NodeTemplate, name: string): string[] {
  return node.requirements
    .filter((r) => r.name === name && r.node !== undefined)
    .map((r) => r.node as string);
}

/** The first target of a requirement, if any. */
export function requirementTarget(node: NodeTemplate, name: string): string | undefined {
  return requirementTargets(node, name)[0];
}
