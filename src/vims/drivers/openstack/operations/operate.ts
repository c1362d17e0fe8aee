/**
 * Operate: Nova starts or stops the VNFCs' servers (every VNFC when none is named) and the
 * driver waits until each reports the state asked for. Nova's stop is always a graceful one (the
 * guest is asked to shut down, for the cloud's configured time, before it is powered off), so a
 * GRACEFUL and a FORCEFUL stop are the same call. The stack is not touched: power state is not
 * part of the template.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DriverResult, OperatePlan, OperationContext } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { lookPauses } from '../client/look-pauses.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { currentStack } from '../prior-state.ts';
import { readInfo } from '../read-info.ts';

/** How long Nova gets to bring servers to the asked state. */
const WAIT_CAP_MS = 10 * 60_000;

export async function operate(
  deps: OpenStackDeps,
  ctx: OperationContext,
  plan: OperatePlan,
): Promise<DriverResult> {
  const client = clientOf(deps, ctx.vim);
  const { stack, state } = await currentStack(client, ctx);
  const info = await readInfo(client, stack, state, ctx.vim.id, ctx.signal);
  const chosen = new Set(plan.vnfcs);
  const targets = (info.vnfcResourceInfo ?? []).filter((v) => chosen.size === 0 || chosen.has(v.id));
  const missing = plan.vnfcs.filter((id) => !targets.some((v) => v.id === id));
  if (missing.length) {
    throw new InfraError(
      'INVALID_REQUEST',
      `Operate names VNFCs the stack does not hold: ${missing.join(', ')}.`,
    );
  }
  const want = plan.changeStateTo === 'STOPPED' ? 'SHUTOFF' : 'ACTIVE';
  const ids = targets.map((v) => v.computeResource.resourceId);
  // A server already in the asked state is left alone (a retry does not stop it twice).
  await Promise.all(
    ids.map(async (id) => {
      const server = await client.nova.server(id, ctx.signal);
      if (!server) throw new InfraError('NOT_FOUND', `Nova has no server ${id}.`, { serverId: id });
      if (server.status === want) return;
      await client.nova.action(id, want === 'SHUTOFF' ? { kind: 'stop' } : { kind: 'start' }, ctx.signal);
    }),
  );
  await waitFor(
    ids,
    want,
    WAIT_CAP_MS,
    async (id) => (await client.nova.server(id, ctx.signal))?.status,
    ctx,
  );
  const after = await readInfo(client, stack, state, ctx.vim.id, ctx.signal);
  return { changes: resourceChanges(ctx.current, after), instantiatedVnfInfo: after };
}

async function waitFor(
  ids: string[],
  want: string,
  timeoutMs: number,
  statusOf: (id: string) => Promise<string | undefined>,
  ctx: OperationContext,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pauses = lookPauses(500);
  for (;;) {
    const states = await Promise.all(ids.map(statusOf));
    const late = ids.filter((_, i) => states[i] !== want);
    if (!late.length) return;
    const failed = ids.filter((_, i) => states[i] === 'ERROR');
    if (failed.length) {
      throw new InfraError(
        'VIM_OPERATION_FAILED',
        `Nova put servers ${failed.join(', ')} in ERROR instead of ${want}.`,
      );
    }
    if (Date.now() > deadline) {
      throw new InfraError(
        'VIM_TIMEOUT',
        `Servers ${late.join(', ')} did not reach ${want} in ${timeoutMs / 1000} s.`,
      );
    }
    try {
      await sleep(pauses.next().value, undefined, { signal: ctx.signal });
    } catch {
      throw new InfraError('CANCELLED', `Operate was cancelled while servers were going ${want}.`);
    }
  }
}
