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
type SimJournalRow = Omit<Tables['sim_journal'], 'id'>;

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

  /** Entries not written yet: `flush` writes them in one INSERT before the call's commit. */
  readonly #entries: SimJournalRow[] = [];

  #record(table: JournaledTable, id: string, before: unknown): void {
    if (!this.#opOccId) return;
    this.#entries.push({
      instance_id: this.#instanceId,
      op_occ_id: this.#opOccId,
      table_name: table,
      resource_id: id,
      before: before === null ? null : JSON.stringify(before),
      created_at: new Date().toISOString(),
    });
  }

  /** Writes the call's entries, in the order of the changes (vimCall runs it before commit). */
  async flush(): Promise<void> {
    const entries = this.#entries.splice(0);
    if (entries.length) await this.trx.insertInto('sim_journal').values(entries).execute();
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
    this.#record(table, row.id, null);
  }

  async update<T extends JournaledTable>(table: T, id: string, patch: Partial<Row<T>>): Promise<void> {
    const before =
      this.dialect === 'postgres' ? await this.#updatePg(table, id, patch) : await this.#get(table, id);
    if (!before) return;
    if (this.dialect !== 'postgres') {
      await this.trx
        .updateTable(table as AnyTable)
        .set(patch as never)
        .where('id', '=', id)
        .execute();
    }
    this.#record(table, id, before);
  }

  /**
   * PostgreSQL: the update and the row as it was, in one statement (a data-modifying CTE sees
   * the snapshot from before the update).
   */
  async #updatePg(
    table: JournaledTable,
    id: string,
    patch: object,
  ): Promise<Record<string, unknown> | undefined> {
    const result = await this.trx
      .with('before', (db) =>
        db
          .selectFrom(table as AnyTable)
          .selectAll()
          .where('id', '=', id),
      )
      .with('changed', (db) =>
        db
          .updateTable(table as AnyTable)
          .set(patch as never)
          .where('id', '=', id)
          .returning('id'),
      )
      .selectFrom('before')
      .selectAll()
      .executeTakeFirst();
    return result as Record<string, unknown> | undefined;
  }

  async remove(table: JournaledTable, id: string): Promise<void> {
    const before = await this.trx
      .deleteFrom(table as AnyTable)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!before) return;
    this.#record(table, id, before);
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
