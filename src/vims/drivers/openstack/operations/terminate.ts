/**
 * Terminate: a graceful termination first stops the servers (Nova's stop lets the guest shut
 * down) and waits for them up to the timeout; then the stack goes with everything in it, and the
 * images only this instance used that Bosun uploaded.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DriverResult, OperationContext, TerminatePlan } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import type { OpenStackClient } from '../client/client.ts';
import { lookPauses } from '../client/look-pauses.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { removeStack } from '../remove-stack.ts';

/** A graceful stop waits at most this long, whatever the request says. */
const GRACEFUL_CAP_MS = 10 * 60_000;

export async function terminate(
  deps: OpenStackDeps,
  ctx: OperationContext,
  plan: TerminatePlan,
): Promise<DriverResult> {
  const client = clientOf(deps, ctx.vim);
  if (plan.terminationType === 'GRACEFUL' && ctx.current) {
    const timeoutMs = Math.min((plan.gracefulTerminationTimeout ?? 0) * 1000, GRACEFUL_CAP_MS);
    await stopGracefully(client, ctx, timeoutMs);
  }
  const before = await removeStack(client, deps, ctx);
  return { changes: resourceChanges(before ?? ctx.current, undefined) };
}

async function stopGracefully(
  client: OpenStackClient,
  ctx: OperationContext,
  timeoutMs: number,
): Promise<void> {
  const ids = (ctx.current?.vnfcResourceInfo ?? []).map((v) => v.computeResource.resourceId);
  await Promise.all(
    ids.map(async (id) => {
      const server = await client.nova.server(id, ctx.signal);
      if (server?.status === 'ACTIVE') await client.nova.action(id, { kind: 'stop' }, ctx.signal);
    }),
  );
  const deadline = Date.now() + timeoutMs;
  const pauses = lookPauses(500);
  while (Date.now() < deadline) {
    const states = await Promise.all(ids.map((id) => client.nova.server(id, ctx.signal)));
    if (states.every((s) => !s || s.status === 'SHUTOFF' || s.status === 'ERROR')) return;
    try {
      await sleep(Math.min(pauses.next().value, Math.max(0, deadline - Date.now())), undefined, {
        signal: ctx.signal,
      });
    } catch {
      throw new InfraError('CANCELLED', 'Terminate was cancelled while the servers were stopping.');
    }
  }
}
