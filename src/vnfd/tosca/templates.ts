/**
 * A `topology_template` → TopologyTemplate: inputs, node templates (properties checked against
 * their type with defaults and functions evaluated, requirements with occurrences, capabilities,
 * artifacts resolved to package paths, interface operations), groups, policies and
 * substitution_mappings, each section built in topology/. Every problem is reported and only the
 * broken piece is skipped.
 */
import type { TopologyTemplate } from './model.ts';
import { type SectionContext, section, type TemplateContext, topologyContext } from './topology/context.ts';
import { functionScopes } from './topology/function-scope.ts';
import { buildGroups } from './topology/groups.ts';
import { buildInputs } from './topology/inputs.ts';
import { buildNodeTemplates } from './topology/node-templates.ts';
import { buildPolicies } from './topology/policies.ts';
import { buildSubstitution, mappedRequirements } from './topology/substitution.ts';

export { isShortNotationArtifact } from './topology/artifacts.ts';
export type { TemplateContext } from './topology/context.ts';

export function buildTopology(raw: Record<string, unknown>, templateCtx: TemplateContext): TopologyTemplate {
  const topologyCtx = topologyContext(raw, templateCtx);
  const inputs = buildInputs(raw, topologyCtx);
  // Node templates: first their raw definitions, so functions can refer to any of them.
  const rawNodes = section(raw, 'node_templates', topologyCtx);
  const nodeNames = new Set(Object.keys(rawNodes));
  const ctx: SectionContext = {
    ...topologyCtx,
    nodeNames,
    scopeFor: functionScopes(inputs, rawNodes, nodeNames, topologyCtx),
  };
  const nodeTemplates = buildNodeTemplates(rawNodes, mappedRequirements(raw), ctx);
  const groups = buildGroups(raw, ctx);
  const policies = buildPolicies(raw, nodeTemplates, groups, ctx);
  const topology: TopologyTemplate = { inputs, nodeTemplates, groups, policies };
  if (raw.substitution_mappings !== undefined && raw.substitution_mappings !== null) {
    const sm = buildSubstitution(raw.substitution_mappings, ctx.at(raw, 'substitution_mappings'), ctx);
    if (sm) topology.substitutionMappings = sm;
  }
  return topology;
}
