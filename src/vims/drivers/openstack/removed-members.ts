/**
 * A per-VDU AutoScalingGroup shrinks by removing its failed members first, then its oldest
 * (Heat's own order); the VNFCs a scale in removes are the newest (the engine picks them, as
 * Tacker does: the first of each VDU's vnfcResourceInfo, newest first). So before a stack update
 * that leaves VNFCs out of such a group, their members are marked unhealthy — as Tacker's scale
 * in does — and the smaller `desired_capacity` removes exactly them. A ResourceGroup removes its
 * highest-numbered, newest members by itself (marked, it would replace them instead), so it is
 * left to do so. Marking again on a retry is harmless: the member is still the VNFC's, or gone.
 */
import type { OperationContext } from '../../contract.ts';
import type { OpenStackClient } from './client/client.ts';
import { stackNameOf } from './names.ts';
import { type StackState, stateOf } from './stack-state.ts';
import { vnfcScopes } from './vnfc-resources.ts';

const AUTO_SCALING_GROUP = 'OS::Heat::AutoScalingGroup';

export async function markRemovedMembers(
  client: OpenStackClient,
  ctx: OperationContext,
  next: Pick<StackState, 'vnfcs'>,
): Promise<string[]> {
  const found = await client.heat.findStack(stackNameOf(ctx.instanceId), ctx.signal);
  const stack = found && (await client.heat.showStack(found, ctx.signal));
  const current = stack && stateOf(stack);
  if (!stack || !current) return [];
  const kept = new Set(next.vnfcs.map((v) => v.id));
  const removed = current.vnfcs.filter((v) => !kept.has(v.id));
  if (!removed.length) return [];
  const resources = await client.heat.resources(stack, { nestedDepth: 3, signal: ctx.signal });
  const scopes = vnfcScopes(resources, stack.id, current);
  const marked: string[] = [];
  for (const vnfc of removed) {
    const member = scopes.get(vnfc.id)?.member;
    if (member?.groupType !== AUTO_SCALING_GROUP) continue;
    await client.heat.markUnhealthy(
      member.stack,
      member.name,
      `VNFC ${vnfc.id} removed by op occ ${ctx.opOccId}`,
      ctx.signal,
    );
    marked.push(vnfc.id);
  }
  return marked;
}
