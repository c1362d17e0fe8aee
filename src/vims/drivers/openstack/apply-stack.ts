/**
 * Makes the instance's one stack hold a state: created when there is none, else updated (PUT,
 * the whole template and parameters) — so a retry after a failure converges on the same stack
 * and never makes a second one (a name Heat still holds for a stack it just deleted is waited
 * for). A stack already holding exactly that state is left alone. Waits
 * for Heat and turns a failed action into the InfraError of the failing resource.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from '../../contract.ts';
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
    ref = await createStack(client, { name, ...body, disableRollback: true }, signal);
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

/** How long a name Heat still holds for a stack it has just deleted is waited for. */
const NAME_HELD_MS = 60_000;

/**
 * Creates the stack. Heat keeps the name of a stack it has just deleted for a moment after it
 * reports DELETE_COMPLETE (a rollback of an instantiate followed at once by a new one) and
 * answers 409 "already exists": the create is tried again until the name is free.
 */
async function createStack(
  client: OpenStackClient,
  create: Parameters<OpenStackClient['heat']['createStack']>[0],
  signal: AbortSignal,
): Promise<StackRef> {
  const until = Date.now() + NAME_HELD_MS;
  for (;;) {
    try {
      return await client.heat.createStack(create, signal);
    } catch (err) {
      const held = err instanceof InfraError && err.detail?.status === 409;
      if (!held || Date.now() > until || (await client.heat.findStack(create.name, signal))) throw err;
      await sleep(1000, undefined, { signal }).catch(() => {
        throw new InfraError('CANCELLED', `Creating Heat stack ${create.name} was cancelled.`);
      });
    }
  }
}
