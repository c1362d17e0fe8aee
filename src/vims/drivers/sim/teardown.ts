/**
 * Removes everything an instance has in the simulated VIM (terminate): servers, its own ports
 * (supplied ones are detached), volumes, networks, the images registered for it, the stack, and
 * its journal. Each removal is a VIM call, so terminate can be cancelled and resumed.
 */
import { type CallScope, removePort, vimCall, vimChange } from './calls.ts';
import { loadState } from './state.ts';

export async function teardown(scope: CallScope): Promise<void> {
  const { db, instanceId } = scope;
  const state = await loadState(db.kysely, instanceId);
  for (const s of state.servers)
    await vimChange(scope, 'server.delete', (j) => j.remove('sim_servers', s.id));
  for (const p of state.ports) await removePort(scope, p);
  for (const v of state.volumes)
    await vimChange(scope, 'volume.delete', (j) => j.remove('sim_volumes', v.id));
  for (const n of state.networks)
    await vimChange(scope, 'network.delete', (j) => j.remove('sim_networks', n.id));
  const images = await db.kysely
    .selectFrom('sim_images')
    .select('id')
    .where('instance_id', '=', instanceId)
    .execute();
  for (const i of images) await vimChange(scope, 'image.delete', (j) => j.remove('sim_images', i.id));
  if (state.stack) {
    const stackId = state.stack.id;
    await vimCall(scope, 'stack.delete', async (j) => {
      await j.remove('sim_stacks', stackId);
      await j.trx.deleteFrom('sim_journal').where('instance_id', '=', instanceId).execute();
    });
  }
}
