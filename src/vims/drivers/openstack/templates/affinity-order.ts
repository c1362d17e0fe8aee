/**
 * The members of one affinity server group the template defines are created one after another.
 * Nova places a group's first member where it likes and the next beside it, but members built
 * at once are each sent to the freest host and the compute's late check then refuses all but
 * one ("Affinity instance group policy was violated"), on an empty cloud every time. Heat builds
 * resources that `depends_on` one another in order; a member refers to its group by
 * `get_resource` in its properties (Tacker's samples pass it to the nested template).
 */
import { isMapping } from './hot-yaml.ts';

const AFFINITY = new Set(['affinity', 'soft-affinity']);

function refersTo(value: unknown, name: string): boolean {
  if (Array.isArray(value)) return value.some((v) => refersTo(v, name));
  if (!isMapping(value)) return false;
  return value.get_resource === name || Object.values(value).some((v) => refersTo(v, name));
}

function isAffinityGroup(resource: unknown): boolean {
  if (!isMapping(resource) || resource.type !== 'OS::Nova::ServerGroup') return false;
  const props = isMapping(resource.properties) ? resource.properties : {};
  const policies = Array.isArray(props.policies) ? props.policies : [props.policy];
  return policies.some((p) => typeof p === 'string' && AFFINITY.has(p));
}

const dependsOn = (resource: Record<string, unknown>): unknown[] =>
  resource.depends_on === undefined
    ? []
    : Array.isArray(resource.depends_on)
      ? resource.depends_on
      : [resource.depends_on];

/** Chains each affinity group's members in template order (oldest VNFC first). */
export function orderAffinityMembers(template: Record<string, unknown>): void {
  const resources = isMapping(template.resources) ? template.resources : {};
  for (const [group, resource] of Object.entries(resources)) {
    if (!isAffinityGroup(resource)) continue;
    const members = Object.keys(resources).filter((name) => {
      const r = resources[name];
      return name !== group && isMapping(r) && refersTo(r.properties, group);
    });
    for (let i = 1; i < members.length; i++) {
      const member = resources[members[i]] as Record<string, unknown>;
      const previous = resources[members[i - 1]] as Record<string, unknown>;
      // Never a cycle: a template that already orders them the other way keeps its order.
      if (dependsOn(previous).includes(members[i]) || dependsOn(member).includes(members[i - 1])) continue;
      member.depends_on = [...dependsOn(member), members[i - 1]];
    }
  }
}
