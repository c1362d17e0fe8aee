/**
 * Which of a stack's Heat resources belong to each VNFC, whatever the template's layout — the one
 * mapping read-back, heal and scale in share:
 * - a VNFC laid as its own top-level resource (per VNFC, StandardUserData): that resource's
 *   nested stack;
 * - a VDU laid as a scaling group (OS::Heat::AutoScalingGroup or ResourceGroup, Tacker's default
 *   UserData): one member of the group, whose nested stack holds the server and ports. Heat names
 *   members itself, so they are matched to the VDU's VNFCs by age, oldest member with oldest VNFC:
 *   both only grow at the new end, and the driver chooses which members a shrink removes
 *   (removed-members.ts), so the pairs stay put; a VNFC whose member Heat has not made yet (a
 *   failed scale out) is the newest, and has none;
 * - a VDU written as a plain server at the top of the template: the top-level resources.
 * Inside a scope, resources carry the VNFD's node names (VDU, VduCp, storage), as in Tacker.
 */
import type { StackRef, StackResource } from './client/heat.ts';
import { RESOURCE_TYPES } from './names.ts';
import type { StackState } from './stack-state.ts';

/** Heat's group resources whose members are a VDU's VNFCs. */
export const GROUP_TYPES = new Set(['OS::Heat::AutoScalingGroup', 'OS::Heat::ResourceGroup']);

export interface VnfcScope {
  /** The top-level resource holding the VNFC (its own, its VDU's group, or its VDU's server). */
  holder: string;
  /** The resources its server, ports and volumes are among. */
  resources: StackResource[];
  /** The group member that is the VNFC, with the group's nested stack that holds it. */
  member?: { name: string; stack: StackRef; groupType: string };
}

/** The id of the stack a resource belongs to (the last segment of its `stack` link). */
export const stackIdOf = (r: StackResource) =>
  r.links
    ?.find((l) => l.rel === 'stack')
    ?.href.split('/')
    .at(-1);

/** The stack a resource lives in, from its `stack` link (…/stacks/<name>/<id>). */
export function owningStack(r: StackResource): StackRef | undefined {
  const href = r.links?.find((l) => l.rel === 'stack')?.href;
  const [name, id] = href?.split('/').slice(-2) ?? [];
  return name && id ? { name: decodeURIComponent(name), id } : undefined;
}

/** Oldest first, as Heat itself orders a group's members (creation time, then name). */
const byAge = (a: StackResource, b: StackResource) =>
  (a.creation_time ?? '').localeCompare(b.creation_time ?? '') ||
  a.resource_name.localeCompare(b.resource_name);

/**
 * Each VNFC's scope, from every resource of the stack (listed with a nested depth reaching the
 * members' own stacks). A VNFC Heat has made nothing for yet has no scope.
 */
export function vnfcScopes(
  all: readonly StackResource[],
  topStackId: string,
  state: Pick<StackState, 'resources'>,
): Map<string, VnfcScope> {
  const inStack = (stackId: string | undefined) => all.filter((r) => stackIdOf(r) === stackId);
  const top = inStack(topStackId);
  const scopes = new Map<string, VnfcScope>();
  for (const [holder, vnfcIds] of Object.entries(state.resources)) {
    const resource = top.find((r) => r.resource_name === holder);
    if (!resource) continue;
    if (resource.resource_type === RESOURCE_TYPES.server) {
      // A plain server at the top: its CPs and storages are top-level resources too.
      for (const id of vnfcIds) scopes.set(id, { holder, resources: top });
      continue;
    }
    if (!resource.physical_resource_id) continue;
    if (!GROUP_TYPES.has(resource.resource_type)) {
      if (vnfcIds.length === 1)
        scopes.set(vnfcIds[0] as string, { holder, resources: inStack(resource.physical_resource_id) });
      continue;
    }
    const members = inStack(resource.physical_resource_id).sort(byAge);
    const oldestFirst = [...vnfcIds].reverse();
    members.forEach((member, i) => {
      const id = oldestFirst[i];
      const stack = owningStack(member);
      if (id === undefined || !stack) return;
      scopes.set(id, {
        holder,
        resources: member.physical_resource_id ? inStack(member.physical_resource_id) : [],
        member: { name: member.resource_name, stack, groupType: resource.resource_type },
      });
    });
  }
  return scopes;
}

/** The VNFC's server in its scope: the resource named after its VDU, else the scope's only server. */
export function serverIn(scope: VnfcScope | undefined, vduId: string): StackResource | undefined {
  const servers = (scope?.resources ?? []).filter(
    (r) => r.resource_type === RESOURCE_TYPES.server && r.physical_resource_id,
  );
  return servers.find((r) => r.resource_name === vduId) ?? (servers.length === 1 ? servers[0] : undefined);
}
