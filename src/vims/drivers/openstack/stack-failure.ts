/**
 * A stack action that failed, as the InfraError the engine and zone reselection read: Heat's
 * reason for the failing resource (Nova's "No valid host was found" → NO_VALID_HOST), and in
 * `detail` the VNFC it belongs to — its VDU and zone — so another zone can be chosen for it.
 */
import { InfraError } from '../../contract.ts';
import type { OpenStackClient } from './client/client.ts';
import { NO_VALID_HOST } from './client/errors.ts';
import type { Stack } from './client/heat.ts';
import type { StackState } from './stack-state.ts';

export async function stackFailure(
  client: OpenStackClient,
  stack: Stack,
  state: StackState,
  signal?: AbortSignal,
): Promise<InfraError> {
  const events = await client.heat.events(stack, { resourceStatus: 'FAILED', signal });
  // The newest failure of a resource of the stack (not the stack's own event).
  const failed = events.filter((e) => e.resource_name !== stack.stack_name).at(-1);
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
