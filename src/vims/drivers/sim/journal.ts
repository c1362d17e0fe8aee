/**
 * Changes to the simulated VIM's resources inside one call, each recorded in `sim_journal` with
 * the row as it was before (null when the change created it). Rollback of an op occ replays its
 * journal backwards, so it removes exactly what the op occ added and puts back what it modified
 * or deleted.
 *
 * A change and its entry commit together. On PostgreSQL each change is one statement that also
 * writes its entry (data-modifying CTEs, which see the row as it was before), so a call that
 * makes a single change needs no transaction of its own (vimCall's `oneChange`); on SQLite, where
 * a statement costs no round trip, the call's entries are written in one INSERT before its commit.
 */
import { type RawBuilder, sql } from 'kysely';
import type { DialectName } from '../../../store/db/database.ts';
import type { Tables } from '../../../store/db/tables.ts';
import type { Executor } from '../../../store/db/transaction.ts';

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
  /** The call's transaction; the root handle for a one-change call on PostgreSQL. */
  readonly trx: Executor;
  readonly dialect: DialectName;
  readonly #instanceId: string;
  readonly #opOccId: string | undefined;
  /** SQLite: entries not written yet (`flush` writes them in one INSERT before the call's commit). */
  readonly #entries: SimJournalRow[] = [];

  constructor(trx: Executor, dialect: DialectName, instanceId: string, opOccId: string | undefined) {
    this.trx = trx;
    this.dialect = dialect;
    this.#instanceId = instanceId;
    this.#opOccId = opOccId;
  }

  get #oneStatement(): boolean {
    return this.dialect === 'postgres';
  }

  #entry(table: JournaledTable, id: string, before: unknown): SimJournalRow {
    return {
      instance_id: this.#instanceId,
      op_occ_id: this.#opOccId ?? '',
      table_name: table,
      resource_id: id,
      before: before === null ? null : JSON.stringify(before),
      created_at: new Date().toISOString(),
    };
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
    if (this.#oneStatement && this.#opOccId) {
      await this.trx
        .with('changed', (db) =>
          db
            .insertInto(table as AnyTable)
            .values(row as never)
            .returning('id'),
        )
        .insertInto('sim_journal')
        .values(this.#entry(table, row.id, null))
        .execute();
      return;
    }
    await this.trx
      .insertInto(table as AnyTable)
      .values(row as never)
      .execute();
    if (this.#opOccId) this.#entries.push(this.#entry(table, row.id, null));
  }

  async update<T extends JournaledTable>(table: T, id: string, patch: Partial<Row<T>>): Promise<void> {
    if (this.#oneStatement) {
      await this.#changeJournaled(
        table,
        id,
        sql`update ${sql.table(table)} set ${assignments(patch)} where id = ${id}`,
      );
      return;
    }
    const before = await this.#get(table, id);
    if (!before) return;
    await this.trx
      .updateTable(table as AnyTable)
      .set(patch as never)
      .where('id', '=', id)
      .execute();
    if (this.#opOccId) this.#entries.push(this.#entry(table, id, before));
  }

  async remove(table: JournaledTable, id: string): Promise<void> {
    if (this.#oneStatement) {
      await this.#changeJournaled(table, id, sql`delete from ${sql.table(table)} where id = ${id}`);
      return;
    }
    const before = await this.trx
      .deleteFrom(table as AnyTable)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (before && this.#opOccId) this.#entries.push(this.#entry(table, id, before));
  }

  /**
   * PostgreSQL: `change` of row `id` and its journal entry (the row as it was, as JSON) in one
   * statement; nothing when the row does not exist.
   */
  async #changeJournaled(table: JournaledTable, id: string, change: RawBuilder<unknown>): Promise<void> {
    if (!this.#opOccId) {
      await change.execute(this.trx);
      return;
    }
    const e = this.#entry(table, id, null);
    await sql`
      with before as (select * from ${sql.table(table)} where id = ${id}),
      changed as (${change} returning id)
      insert into sim_journal (instance_id, op_occ_id, table_name, resource_id, before, created_at)
      select ${e.instance_id}, ${e.op_occ_id}, ${e.table_name}, ${e.resource_id}, row_to_json(before)::text, ${e.created_at}
      from before`.execute(this.trx);
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

/** `column = value, …` of an UPDATE. */
function assignments(patch: object): RawBuilder<unknown> {
  return sql.join(
    Object.entries(patch)
      .filter(([, value]) => value !== undefined)
      .map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
  );
}
