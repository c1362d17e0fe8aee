/**
 * Makes the instance's one stack hold a state: created when there is none, else updated (PUT,
 * the whole template and parameters) — so a retry after a failure converges on the same stack
 * and never makes a second one. A stack already holding exactly that state is left alone. Waits
 * for Heat and turns a failed action into the InfraError of the failing resource.
 */
import type { OpenStackClient } from './client/client.ts';
import type { Stack, StackRef } from './client/heat.ts';
import { instanceTag, opOccTag, stackNameOf } from './names.ts';
import { stackFailure } from './stack-failure.ts';
import { STATE_PARAMETER, type StackState, stateOf, withStateParameter } from './stack-state.ts';

export interface StackContent {
  template: Record<string, unknown>;
  files: Record<string, string>;
  parameters: Record<string, unknown>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function applyStack(
  client: OpenStackClient,
  instanceId: string,
  content: StackContent,
  state: StackState,
  signal: AbortSignal,
): Promise<Stack> {
  const name = stackNameOf(instanceId);
  const body = {
    template: withStateParameter(content.template),
    files: content.files,
    parameters: { ...content.parameters, [STATE_PARAMETER]: state },
    tags: [instanceTag(instanceId), opOccTag(state.opOccId)],
  };
  let ref: StackRef;
  const found = await client.heat.findStack(name, signal);
  if (!found) {
    ref = await client.heat.createStack({ name, ...body, disableRollback: true }, signal);
  } else {
    ref = found;
    const current = (await client.heat.waitStack(ref, { signal })) ?? found;
    const holds = await client.heat.showStack(ref, signal);
    if (holds && current.stack_status.endsWith('_COMPLETE') && same(stateOf(holds), state)) return holds;
    await client.heat.updateStack(ref, body, { patch: false, signal });
  }
  const done = await client.heat.waitStack(ref, { signal });
  if (done?.stack_status.endsWith('_COMPLETE')) return (await client.heat.showStack(ref, signal)) ?? done;
  throw await stackFailure(client, done ?? { ...ref, stack_name: name, stack_status: 'GONE' }, state, signal);
}
