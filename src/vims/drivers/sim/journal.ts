/**
 * Changes to the simulated VIM's resources inside one call's transaction, each recorded in
 * `sim_journal` with the row as it was before (null when the change created it). Rollback of an
 * op occ replays its journal backwards, so it removes exactly what the op occ added and puts
 * back what it modified or deleted.
 */
import type { Transaction } from 'kysely';
import type { DialectName } from '../../../store/db/database.ts';
import type { Tables } from '../../../store/db/tables.ts';

export const JOURNALED_TABLES = [
  'sim_stacks',
  'sim_servers',
  'sim_volumes',
  'sim_networks',
  'sim_ports',
  'sim_images',
] as const;
export type JournaledTable = (typeof JOURNALED_TABLES)[number];

type Row<T extends JournaledTable> = Tables[T];
type AnyTable = 'sim_servers';

export class Journal {
  readonly trx: Transaction<Tables>;
  readonly dialect: DialectName;
  readonly #instanceId: string;
  readonly #opOccId: string | undefined;

  constructor(
    trx: Transaction<Tables>,
    dialect: DialectName,
    instanceId: string,
    opOccId: string | undefined,
  ) {
    this.trx = trx;
    this.dialect = dialect;
    this.#instanceId = instanceId;
    this.#opOccId = opOccId;
  }

  async #record(table: JournaledTable, id: string, before: unknown): Promise<void> {
    if (!this.#opOccId) return;
    await this.trx
      .insertInto('sim_journal')
      .values({
        instance_id: this.#instanceId,
        op_occ_id: this.#opOccId,
        table_name: table,
        resource_id: id,
        before: before === null ? null : JSON.stringify(before),
        created_at: new Date().toISOString(),
      })
      .execute();
  }

  async #get(table: JournaledTable, id: string): Promise<Record<string, unknown> | undefined> {
    return (await this.trx
      .selectFrom(table as AnyTable)
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()) as Record<string, unknown> | undefined;
  }

  async insert<T extends JournaledTable>(table: T, row: Row<T>): Promise<void> {
    await this.trx
      .insertInto(table as AnyTable)
      .values(row as never)
      .execute();
    await this.#record(table, row.id, null);
  }

  async update<T extends JournaledTable>(table: T, id: string, patch: Partial<Row<T>>): Promise<void> {
    const before = await this.#get(table, id);
    if (!before) return;
    await this.trx
      .updateTable(table as AnyTable)
      .set(patch as never)
      .where('id', '=', id)
      .execute();
    await this.#record(table, id, before);
  }

  async remove(table: JournaledTable, id: string): Promise<void> {
    const before = await this.#get(table, id);
    if (!before) return;
    await this.trx
      .deleteFrom(table as AnyTable)
      .where('id', '=', id)
      .execute();
    await this.#record(table, id, before);
  }

  /** Puts a row back as it was (rollback): no journal entry. */
  async restore(table: JournaledTable, id: string, before: Record<string, unknown> | null): Promise<void> {
    await this.trx
      .deleteFrom(table as AnyTable)
      .where('id', '=', id)
      .execute();
    if (before) {
      await this.trx
        .insertInto(table as AnyTable)
        .values(before as never)
        .execute();
    }
  }
}
