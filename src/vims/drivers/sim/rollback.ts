/**
 * Rollback of an op occ: its journal replayed newest change first — rows it created are
 * deleted, rows it modified or deleted are put back as they were — each step a VIM call whose
 * journal entry goes in the same transaction, so an interrupted rollback resumes where it
 * stopped. Then anything still tagged with the op occ (there should be nothing) is removed.
 */
import { type CallScope, type SimCallKind, vimCall } from './calls.ts';
import { JOURNALED_TABLES, type JournaledTable } from './journal.ts';

const RESOURCE: Record<JournaledTable, string> = {
  sim_stacks: 'stack',
  sim_servers: 'server',
  sim_volumes: 'volume',
  sim_networks: 'network',
  sim_ports: 'port',
  sim_images: 'image',
};

export async function replayJournal(scope: CallScope, opOccId: string): Promise<void> {
  const { db, instanceId } = scope;
  for (;;) {
    const entries = await db.kysely
      .selectFrom('sim_journal')
      .selectAll()
      .where('instance_id', '=', instanceId)
      .where('op_occ_id', '=', opOccId)
      .orderBy('id', 'desc')
      .limit(100)
      .execute();
    if (entries.length === 0) break;
    for (const entry of entries) {
      const table = entry.table_name as JournaledTable;
      const before = entry.before === null ? null : (JSON.parse(entry.before) as Record<string, unknown>);
      const exists = await db.kysely
        .selectFrom(table as 'sim_servers')
        .select('id')
        .where('id', '=', entry.resource_id)
        .executeTakeFirst();
      const action = before === null ? 'delete' : exists ? 'update' : 'create';
      await vimCall(scope, `${RESOURCE[table]}.${action}` as SimCallKind, async (j) => {
        await j.restore(table, entry.resource_id, before);
        await j.trx.deleteFrom('sim_journal').where('id', '=', entry.id).execute();
      });
    }
  }
  for (const table of JOURNALED_TABLES) {
    const left = await db.kysely
      .selectFrom(table as 'sim_servers')
      .select('id')
      .where('instance_id', '=', instanceId)
      .where('op_occ_id', '=', opOccId)
      .execute();
    for (const row of left) {
      await vimCall(scope, `${RESOURCE[table]}.delete` as SimCallKind, (j) => j.restore(table, row.id, null));
    }
  }
}

/** Journal entries of other op occs of the instance are obsolete once a new op occ runs. */
export async function forgetOtherOpOccs(scope: CallScope): Promise<void> {
  await scope.db.kysely
    .deleteFrom('sim_journal')
    .where('instance_id', '=', scope.instanceId)
    .where('op_occ_id', '<>', scope.opOccId)
    .execute();
}
