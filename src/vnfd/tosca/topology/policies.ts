/**
 * `policies`, a list of one-key maps (TOSCA 1.2) or a map: each policy's type, its targets (node
 * templates or groups of the types the policy applies to) and its properties.
 */
import { ownValue } from '../../../own-properties.ts';
import type { Location } from '../../diagnostics.ts';
import { checkProperties } from '../data-types.ts';
import { evaluate } from '../functions.ts';
import type { GroupTemplate, NodeTemplate, PolicyTemplate, ToscaType } from '../model.ts';
import { isMap } from '../type-registry.ts';
import { type SectionContext, typedEntry } from './context.ts';

/** What policy targets may name. */
interface Targets {
  nodeTemplates: Record<string, NodeTemplate>;
  groups: GroupTemplate[];
  groupNames: ReadonlySet<string>;
}

export function buildPolicies(
  raw: Record<string, unknown>,
  nodeTemplates: Record<string, NodeTemplate>,
  groups: GroupTemplate[],
  ctx: SectionContext,
): PolicyTemplate[] {
  const targets: Targets = { nodeTemplates, groups, groupNames: new Set(groups.map((g) => g.name)) };
  const policies: PolicyTemplate[] = [];
  for (const [name, p, loc] of policyEntries(raw, ctx)) {
    const policy = buildPolicy(name, p, loc, targets, ctx);
    if (policy) policies.push(policy);
  }
  return policies;
}

/** Name, definition and location of each policy, whichever way they are written. */
function policyEntries(raw: Record<string, unknown>, ctx: SectionContext): [string, unknown, Location][] {
  const rawPolicies = raw.policies;
  const entries: [string, unknown, Location][] = [];
  if (Array.isArray(rawPolicies)) {
    for (const [i, entry] of rawPolicies.entries()) {
      if (isMap(entry) && Object.keys(entry).length === 1) {
        const [n, p] = Object.entries(entry)[0];
        entries.push([n, p, ctx.keyAt(entry, n, ctx.at(rawPolicies, i))]);
      } else
        ctx.diags.error('TOSCA_SYNTAX', `policy ${i + 1} must be a map with one key`, ctx.at(rawPolicies, i));
    }
  } else if (isMap(rawPolicies)) {
    for (const [n, p] of Object.entries(rawPolicies)) entries.push([n, p, ctx.keyAt(rawPolicies, n)]);
  } else if (rawPolicies !== undefined && rawPolicies !== null) {
    ctx.diags.error('TOSCA_SYNTAX', 'policies must be a list', ctx.at(raw, 'policies'));
  }
  return entries;
}

function buildPolicy(
  name: string,
  raw: unknown,
  loc: Location,
  known: Targets,
  ctx: SectionContext,
): PolicyTemplate | undefined {
  const read = typedEntry('policy', name, raw, loc, ctx);
  if (!read) return undefined;
  const { entry: p, type } = read;
  const targets = policyTargets(name, p, type, loc, known, ctx);
  const given = isMap(p.properties)
    ? (evaluate(p.properties, ctx.scopeFor(), ctx.at(p, 'properties', loc)) as Record<string, unknown>)
    : {};
  const properties = type ? checkProperties(given, type.properties, `policy ${name}`, loc, ctx) : given;
  return { name, type: type?.name ?? p.type, properties, targets, loc };
}

/** The targets that name a node template or group; one of a type the policy does not apply to is a warning. */
function policyTargets(
  name: string,
  p: Record<string, unknown>,
  type: ToscaType | undefined,
  loc: Location,
  known: Targets,
  ctx: SectionContext,
): string[] {
  const targets: string[] = [];
  const validTargets = Array.isArray(type?.definition.targets)
    ? (type.definition.targets as unknown[]).filter((t): t is string => typeof t === 'string')
    : [];
  for (const [i, t] of (Array.isArray(p.targets) ? p.targets : []).entries()) {
    const tloc = ctx.at(p.targets, i, loc);
    if (typeof t !== 'string' || (!ctx.nodeNames.has(t) && !known.groupNames.has(t))) {
      ctx.diags.error(
        'TOSCA_UNKNOWN_TARGET',
        `policy ${name}: target ${String(t)} is not a node template or group of this topology`,
        tloc,
      );
      continue;
    }
    targets.push(t);
    const targetType = ownValue(known.nodeTemplates, t)?.type ?? known.groups.find((g) => g.name === t)?.type;
    if (validTargets.length > 0 && targetType && !validTargets.some((v) => ctx.registry.isA(targetType, v))) {
      ctx.diags.warning(
        'TOSCA_INVALID_TARGET',
        `policy ${name}: target ${t} (${targetType}) is not one of the types ${p.type} applies to (${validTargets.join(', ')})`,
        tloc,
      );
    }
  }
  return targets;
}
