/**
 * Heal: each VNFC named gets a new server. Its server (and with storage its volumes) is marked
 * unhealthy in the VNFC's nested stack (its own, or its member of the VDU's scaling group, as
 * Tacker's heal marks it) and the stack is updated: Heat replaces exactly those
 * resources and re-attaches the VNFC's ports, so the VNFC keeps its id, ports and addresses
 * (a heal of the whole VNF names every VNFC and so replaces every server, rather than recreating
 * the stack, which would renumber ports and networks). A retry marks only the servers still the
 * ones the instance had before the op occ, so nothing is replaced twice.
 */
import type { DriverResult, HealPlan, OperationContext } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { applyChange } from '../apply-change.ts';
import type { OpenStackClient } from '../client/client.ts';
import type { StackResource } from '../client/heat.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { zoneOf } from '../design.ts';
import { RESOURCE_TYPES } from '../names.ts';
import { changedState, currentStack, startingState } from '../prior-state.ts';
import { owningStack } from '../vnfc-resources.ts';

async function markForHeal(
  client: OpenStackClient,
  ctx: OperationContext,
  resources: StackResource[],
  replace: (r: StackResource) => boolean,
  reason: string,
): Promise<void> {
  for (const r of resources.filter(replace)) {
    const owner = owningStack(r);
    if (!owner)
      throw new InfraError('VIM_OPERATION_FAILED', `Heat does not say which stack holds ${r.resource_name}.`);
    await client.heat.markUnhealthy(owner, r.resource_name, reason, ctx.signal);
  }
}

export async function heal(
  deps: OpenStackDeps,
  ctx: OperationContext,
  plan: HealPlan,
): Promise<DriverResult> {
  const client = clientOf(deps, ctx.vim);
  const { stack, state } = await currentStack(client, ctx);
  const base = startingState(state, ctx);
  const unknown = plan.vnfcs.filter((id) => !base.vnfcs.some((v) => v.id === id));
  if (unknown.length) {
    throw new InfraError(
      'INVALID_REQUEST',
      `Heal names VNFCs the stack does not hold: ${unknown.join(', ')}.`,
    );
  }
  // The servers and volumes the instance had before this op occ: still there means not yet healed.
  const before = new Set<string>();
  for (const v of ctx.current?.vnfcResourceInfo ?? []) {
    if (plan.vnfcs.includes(v.id)) before.add(v.computeResource.resourceId);
  }
  for (const s of ctx.current?.virtualStorageResourceInfo ?? []) {
    if (plan.includeStorage && plan.vnfcs.some((id) => s.id.endsWith(`-${id}`)))
      before.add(s.storageResource.resourceId);
  }
  const resources = await client.heat.resources(stack, { nestedDepth: 3, signal: ctx.signal });
  const kinds = new Set<string>([
    RESOURCE_TYPES.server,
    ...(plan.includeStorage ? [RESOURCE_TYPES.volume] : []),
  ]);
  await markForHeal(
    client,
    ctx,
    resources,
    (r) => kinds.has(r.resource_type) && before.has(r.physical_resource_id),
    `Healed by op occ ${ctx.opOccId}${plan.cause ? `: ${plan.cause}` : ''}`.slice(0, 255),
  );
  // The same VNFCs: the update only replaces what is marked, in the zone the grant gives (zone
  // reselection moves a healed VNFC whose zone has no room), else where it was.
  const healed = new Set(plan.vnfcs);
  const vnfcs = base.vnfcs.map((v) => {
    const zone = healed.has(v.id) ? zoneOf(ctx, v.id) : undefined;
    return zone ? { ...v, zone } : v;
  });
  return applyChange(deps, client, ctx, changedState(base, ctx, { vnfcs }));
}
