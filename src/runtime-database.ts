/**
 * The composition root's database entry: the database alone, opened from the configuration and
 * migrated. createRuntime starts from it, and so do the commands that need nothing else
 * (`bosun db migrate` reports what was applied, `bosun auth client` keeps its rows there) —
 * without loading the engine, the drivers and the workers runtime.ts wires.
 */
import type { Config } from './config/load.ts';
import { type Database, openDatabase } from './store/db/database.ts';
import { type MigrateOutcome, migrate } from './store/db/migrate.ts';

export async function openRuntimeDatabase(
  config: Config,
): Promise<{ db: Database; migrated: MigrateOutcome }> {
  const db = openDatabase(config.database);
  try {
    return { db, migrated: await migrate(db) };
  } catch (err) {
    await db.close();
    throw err;
  }
}
