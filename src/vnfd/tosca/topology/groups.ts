/** `groups`: each group's type, its members (node templates or groups) and its properties. */
import type { Location } from '../../diagnostics.ts';
import { checkProperties } from '../data-types.ts';
import { evaluate } from '../functions.ts';
import type { GroupTemplate } from '../model.ts';
import { isMap } from '../type-registry.ts';
import { type SectionContext, section, typedEntry } from './context.ts';

export function buildGroups(raw: Record<string, unknown>, ctx: SectionContext): GroupTemplate[] {
  const groups: GroupTemplate[] = [];
  const rawGroups = section(raw, 'groups', ctx);
  for (const [name, g] of Object.entries(rawGroups)) {
    const group = buildGroup(name, g, rawGroups, ctx.keyAt(rawGroups, name), ctx);
    if (group) groups.push(group);
  }
  return groups;
}

function buildGroup(
  name: string,
  raw: unknown,
  rawGroups: Record<string, unknown>,
  loc: Location,
  ctx: SectionContext,
): GroupTemplate | undefined {
  const read = typedEntry('group', name, raw, loc, ctx);
  if (!read) return undefined;
  const { entry: g, type } = read;
  const members: string[] = [];
  for (const [i, m] of (Array.isArray(g.members) ? g.members : []).entries()) {
    if (typeof m === 'string' && (ctx.nodeNames.has(m) || Object.hasOwn(rawGroups, m))) members.push(m);
    else
      ctx.diags.error(
        'TOSCA_UNKNOWN_MEMBER',
        `group ${name}: member ${String(m)} is not a node template of this topology`,
        ctx.at(g.members, i, loc),
      );
  }
  const given = isMap(g.properties)
    ? (evaluate(g.properties, ctx.scopeFor(), ctx.at(g, 'properties', loc)) as Record<string, unknown>)
    : {};
  // tosca-parser does not require group properties (SOL001 PlacementGroup.description is
  // "required" but commonly omitted), so a missing one is only a warning here.
  const properties = type
    ? checkProperties(given, type.properties, `group ${name}`, loc, ctx, { missingSeverity: 'warning' })
    : given;
  return { name, type: type?.name ?? g.type, members, properties, loc };
}
