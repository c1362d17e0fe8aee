/**
 * A stack action that failed, as the InfraError the engine and zone reselection read: Heat's
 * reason for the failing resource (Nova's "No valid host was found" → NO_VALID_HOST), and in
 * `detail` the VNFC it belongs to — its VDU and zone — so another zone can be chosen for it.
 */
import { InfraError } from '../../contract.ts';
import type { OpenStackClient } from './client/client.ts';
import { NO_VALID_HOST } from './client/errors.ts';
import type { Stack, StackEvent } from './client/heat.ts';
import type { StackState } from './stack-state.ts';

/** Heat's reasons for a resource it stopped because another failed. */
const CANCELLED = /\b(Stack|Resource) [A-Z]+ cancelled\b|\bOperation cancelled\b/;

export async function stackFailure(
  client: OpenStackClient,
  stack: Stack,
  state: StackState,
  signal?: AbortSignal,
): Promise<InfraError> {
  const events = await client.heat.events(stack, { resourceStatus: 'FAILED', signal });
  const failed = failureCause(stack, events);
  const reason = failed?.resource_status_reason || stack.stack_status_reason || 'Heat gave no reason';
  const vnfcId = failed ? state.resources[failed.resource_name]?.[0] : undefined;
  const vnfc = state.vnfcs.find((v) => v.id === vnfcId);
  const noHost = NO_VALID_HOST.test(reason);
  return new InfraError(
    noHost ? 'NO_VALID_HOST' : 'VIM_OPERATION_FAILED',
    `Heat stack ${stack.stack_name} is ${stack.stack_status}${failed ? `: resource ${failed.resource_name}` : ''}: ${reason}`,
    {
      stack: stack.stack_name,
      ...(failed ? { resource: failed.resource_name } : {}),
      ...(vnfc ? { vduId: vnfc.vduId, vnfcId: vnfc.id, ...(vnfc.zone ? { zone: vnfc.zone } : {}) } : {}),
      reason,
    },
  );
}

/**
 * The resource failure that failed the stack's current action: the newest of this action's
 * failures that is not a cancellation (or the newest of any, when Heat reported no other).
 */
export function failureCause(stack: Stack, events: readonly StackEvent[]): StackEvent | undefined {
  // Resources' events only, and only this action's: an earlier action's failure (a previous
  // zone) is not the cause. When one resource fails Heat cancels the others in progress, and
  // their "cancelled" failures come after the one that caused them.
  const since = Date.parse(stack.updated_time ?? stack.creation_time ?? '');
  const all = events.filter((e) => e.resource_name !== stack.stack_name);
  const current = all.filter((e) => !(Date.parse(e.event_time) < since));
  const resources = current.length > 0 ? current : all;
  const causes = resources.filter((e) => !CANCELLED.test(e.resource_status_reason ?? ''));
  return causes.at(-1) ?? resources.at(-1);
}
