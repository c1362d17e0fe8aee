/**
 * Applies a changed state to the instance's stack (built from the flavour's templates, recording
 * the package they came from; the scaling group members of VNFCs it leaves out marked first, so
 * that they are the ones removed) and reports instantiatedVnfInfo read back from the cloud, with the
 * resource changes since the instance's state before the op occ. The flavour of a state from
 * another package (a rollback of a package change) is read from that package's VNFD.
 */
import { findPackage } from '../../../packages/package-record.ts';
import type { Flavour, Vnfd } from '../../../vnfd/model/vnfd.ts';
import { type DriverResult, InfraError, type OperationContext } from '../../contract.ts';
import { resourceChanges } from '../resource-changes.ts';
import { applyStack } from './apply-stack.ts';
import type { OpenStackClient } from './client/client.ts';
import type { OpenStackDeps } from './deps.ts';
import type { ChangedState } from './prior-state.ts';
import { readInfo } from './read-info.ts';
import { markRemovedMembers } from './removed-members.ts';
import { stackContent } from './stack-content.ts';

export function flavourIn(vnfd: Vnfd, flavourId: string): Flavour {
  const flavour = vnfd.flavours.find((f) => f.flavourId === flavourId);
  if (!flavour)
    throw new InfraError('INVALID_REQUEST', `The VNFD has no flavour ${flavourId}.`, { flavourId });
  return flavour;
}

/** The VNFD a state's templates come from: the context's, or that of the package the state names. */
async function vnfdOfState(deps: OpenStackDeps, ctx: OperationContext, state: ChangedState): Promise<Vnfd> {
  if (!state.packageId || state.packageId === ctx.packageId) return ctx.vnfd;
  const record = await findPackage(deps.db.kysely, state.packageId, { model: true });
  if (!record?.vnfdModel) {
    throw new InfraError(
      'NOT_FOUND',
      `The VNF package ${state.packageId} the stack was built from no longer exists.`,
    );
  }
  return record.vnfdModel;
}

export async function applyChange(
  deps: OpenStackDeps,
  client: OpenStackClient,
  ctx: OperationContext,
  next: ChangedState,
): Promise<DriverResult> {
  const flavour = flavourIn(await vnfdOfState(deps, ctx, next), next.flavourId);
  const { resources, ...content } = await stackContent(deps, ctx, flavour, next, next.packageId);
  const state: ChangedState = { ...next, resources };
  await markRemovedMembers(client, ctx, state);
  const stack = await applyStack(client, ctx.instanceId, content, state, ctx.signal);
  const info = await readInfo(client, stack, state, ctx.vim.id, ctx.signal);
  return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
}
