/**
 * `substitution_mappings`: the node type the topology implements, its property values, and the
 * requirements and capabilities mapped to node templates of the topology.
 */
import { ownValue, setOwn } from '../../../own-properties.ts';
import type { Location } from '../../diagnostics.ts';
import { checkValue, defineEntry, type ValueContext } from '../data-types.ts';
import { evaluate } from '../functions.ts';
import type { SubstitutionMappings, ToscaType } from '../model.ts';
import { isMap } from '../type-registry.ts';
import { copyLoc, locOf } from '../yaml-source.ts';
import type { SectionContext } from './context.ts';

type MappingKind = 'requirements' | 'capabilities';

const SINGULAR: Record<MappingKind, string> = { requirements: 'requirement', capabilities: 'capability' };

/**
 * `node\0requirement` of each requirement the mappings map, read before the node templates
 * (whose occurrence checks count a mapped requirement as fulfilled).
 */
export function mappedRequirements(raw: Record<string, unknown>): Set<string> {
  const substitution = isMap(raw.substitution_mappings) ? raw.substitution_mappings : undefined;
  const mapped = new Set<string>();
  if (substitution && isMap(substitution.requirements)) {
    for (const target of Object.values(substitution.requirements)) {
      if (Array.isArray(target) && target.length >= 2) mapped.add(`${target[0]}\u0000${target[1]}`);
    }
  }
  return mapped;
}

export function buildSubstitution(
  s: unknown,
  loc: Location,
  ctx: SectionContext,
): SubstitutionMappings | undefined {
  if (!isMap(s) || typeof s.node_type !== 'string') {
    ctx.diags.error('TOSCA_SYNTAX', 'substitution_mappings must be a map with a node_type', loc);
    return undefined;
  }
  const type = ctx.registry.lookup(s.node_type, 'node');
  if (!type) {
    ctx.diags.error(
      'TOSCA_UNKNOWN_TYPE',
      `substitution_mappings: node_type ${s.node_type} is not defined`,
      ctx.at(s, 'node_type', loc),
    );
  }
  const properties = mappedProperties(s, type, loc, ctx);
  return {
    nodeType: type?.name ?? s.node_type,
    properties,
    requirements: mappings('requirements', s, type, loc, ctx),
    capabilities: mappings('capabilities', s, type, loc, ctx),
    loc: locOf(s) ?? loc,
  };
}

/** The property values, checked against the node type's definitions (violations tolerated). */
function mappedProperties(
  s: Record<string, unknown>,
  type: ToscaType | undefined,
  loc: Location,
  ctx: SectionContext,
): Record<string, unknown> {
  const given = isMap(s.properties) ? s.properties : {};
  const properties: Record<string, unknown> = {};
  // tosca-parser never checks these values against the type's constraints (a flavour_id
  // outside valid_values onboards in Tacker).
  const mappingCtx: ValueContext = { ...ctx, toleratedConstraint: 'TOSCA_MAPPING_CONSTRAINT' };
  for (const [p, v] of Object.entries(given)) {
    const ploc = ctx.at(given, p, loc);
    const def = type && ownValue(type.properties, p);
    if (type && !def) {
      ctx.diags.error(
        'TOSCA_UNKNOWN_PROPERTY',
        `substitution_mappings: node type ${type.name} has no property ${p}`,
        ploc,
      );
      continue;
    }
    const value = evaluate(v, ctx.scopeFor(), ploc);
    // TOSCA 1.2 also allows `[input_name]` (mapping an input), which is not a value to check.
    const isInputMapping =
      Array.isArray(value) && value.length === 1 && typeof value[0] === 'string' && def?.type !== 'list';
    defineEntry(
      properties,
      p,
      def && !isInputMapping
        ? checkValue(value, def, `substitution_mappings property ${p}`, ploc, mappingCtx)
        : value,
    );
  }
  return copyLoc(properties, given);
}

/** The requirements or capabilities mapped to `[node_template, name]`; unusable ones are reported. */
function mappings(
  kind: MappingKind,
  s: Record<string, unknown>,
  type: ToscaType | undefined,
  loc: Location,
  ctx: SectionContext,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const m = s[kind];
  if (m === undefined || m === null) return out;
  if (!isMap(m)) {
    ctx.diags.error('TOSCA_SYNTAX', `substitution_mappings ${kind} must be a map`, ctx.at(s, kind, loc));
    return out;
  }
  const defined = definedNames(kind, type);
  for (const [k, target] of Object.entries(m)) {
    const tloc = ctx.at(m, k, loc);
    if (Array.isArray(target) && target.length === 0) continue; // declared, not mapped
    if (!Array.isArray(target) || target.length !== 2 || !target.every((x) => typeof x === 'string')) {
      ctx.diags.error(
        'TOSCA_SYNTAX',
        `substitution_mappings ${kind} ${k} must be [node_template, ${SINGULAR[kind]}]`,
        tloc,
      );
      continue;
    }
    if (type && !defined.has(k)) {
      ctx.diags.warning(
        'TOSCA_UNKNOWN_MAPPING',
        `substitution_mappings: node type ${type.name} has no ${SINGULAR[kind]} ${k}`,
        ctx.keyAt(m, k, loc),
      );
    }
    if (!ctx.nodeNames.has(target[0])) {
      // tosca-parser (and so Tacker) accepts this; the mapping is unusable but harmless.
      ctx.diags.warning(
        'TOSCA_UNKNOWN_NODE',
        `substitution_mappings ${kind} ${k}: ${target[0]} is not a node template of this topology`,
        tloc,
      );
      continue;
    }
    setOwn(out, k, target);
  }
  return out;
}

/** The requirement or capability names the node type defines. */
function definedNames(kind: MappingKind, type: ToscaType | undefined): Set<string> {
  const defined = new Set<string>();
  if (type && kind === 'requirements' && Array.isArray(type.definition.requirements)) {
    for (const e of type.definition.requirements)
      if (isMap(e)) for (const k of Object.keys(e)) defined.add(k);
  }
  if (type && kind === 'capabilities' && isMap(type.definition.capabilities)) {
    for (const k of Object.keys(type.definition.capabilities)) defined.add(k);
  }
  return defined;
}
