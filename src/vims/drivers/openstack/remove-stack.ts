/**
 * Removes the instance's stack and everything in it (servers, ports, volumes, networks), then
 * the images only it used that Bosun uploaded. Reports what was there before (for the
 * resourceChanges of a terminate or a rollback). Idempotent: no stack, nothing to remove.
 */
import type { InstantiatedVnfInfo } from '../../../sol/instance-model.ts';
import type { OperationContext } from '../../contract.ts';
import type { OpenStackClient } from './client/client.ts';
import { cloudKeyOf, type OpenStackDeps } from './deps.ts';
import { releaseImages } from './images.ts';
import { stackNameOf } from './names.ts';
import { readInfo } from './read-info.ts';
import { stackFailure } from './stack-failure.ts';
import { stateOf } from './stack-state.ts';

/** Deletes tried before the failure is reported. */
const DELETE_ATTEMPTS = 3;

export async function removeStack(
  client: OpenStackClient,
  deps: OpenStackDeps,
  ctx: OperationContext,
  options: { imagesOfOpOcc?: string } = {},
): Promise<InstantiatedVnfInfo | undefined> {
  const name = stackNameOf(ctx.instanceId);
  const found = await client.heat.findStack(name, ctx.signal);
  let before: InstantiatedVnfInfo | undefined;
  if (found) {
    await client.heat.waitStack(found, { signal: ctx.signal });
    const full = await client.heat.showStack(found, ctx.signal);
    const state = full ? stateOf(full) : undefined;
    if (full && state) before = await readInfo(client, full, state, ctx.vim.id, ctx.signal);
    let done: Awaited<ReturnType<typeof client.heat.waitStack>>;
    // Heat may fail a delete on an ordering race inside the cloud (a subnet whose ports are still
    // going): what is left goes on the next try.
    for (let attempt = 1; ; attempt++) {
      await client.heat.deleteStack(found, ctx.signal);
      done = await client.heat.waitStack(found, { signal: ctx.signal });
      if (!done || done.stack_status === 'DELETE_COMPLETE' || attempt === DELETE_ATTEMPTS) break;
      await removeOrphanPorts(client, name, ctx.signal);
    }
    if (done && done.stack_status !== 'DELETE_COMPLETE') {
      throw await stackFailure(client, done, state ?? emptyState(ctx.opOccId), ctx.signal);
    }
  }
  await releaseImages(
    client,
    deps.db,
    {
      cloud: await cloudKeyOf(client, ctx.signal),
      instanceId: ctx.instanceId,
      opOccId: options.imagesOfOpOcc,
    },
    ctx.signal,
  );
  return before;
}

const emptyState = (opOccId: string) => ({
  opOccId,
  flavourId: '',
  vnfcs: [],
  virtualLinks: [],
  extVirtualLinks: [],
  extManagedVirtualLinks: [],
  scaleStatus: [],
  maxScaleLevels: [],
  resources: {},
});

/**
 * Ports of the stack Heat lost track of (named `<stack>-…` by Heat) that keep a subnet of the
 * stack from going: deleted before the next try.
 */
async function removeOrphanPorts(
  client: OpenStackClient,
  stackName: string,
  signal: AbortSignal,
): Promise<void> {
  const ports = await client.neutron.ports({}, signal);
  for (const port of ports.filter((p) => p.name.startsWith(`${stackName}-`))) {
    await client.neutron.deletePort(port.id, signal);
  }
}
