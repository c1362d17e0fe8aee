/**
 * Applies the in-code migrations; safe to run from several replicas at once (Kysely locks). A
 * database already at a newer schema (a later release's replicas migrated it during a rolling
 * upgrade) is used as it is: releases only expand the schema (docs/cluster.md), so this release's
 * code still works on it, and nothing is rolled back.
 */
import { sql } from 'kysely';
import { type Migration, type MigrationResult, Migrator } from 'kysely/migration';
import type { Database } from './database.ts';
import { MIGRATIONS } from './migrations/index.ts';

export interface MigrateOutcome {
  applied: string[];
  current: string[];
  /** Migrations the database has that this release does not know (it is newer). */
  newer: string[];
}

/** The names of the migrations the database has run; none before the first migration. */
async function executedMigrations(db: Database): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from bosun_migrations order by name`.execute(
      db.kysely,
    );
    return rows.map((r) => r.name);
  } catch {
    return [];
  }
}

export async function migrate(
  db: Database,
  migrations: Record<string, Migration> = MIGRATIONS,
): Promise<MigrateOutcome> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'bosun_migrations',
    migrationLockTableName: 'bosun_migrations_lock',
  });
  const executed = await executedMigrations(db);
  const newer = executed.filter((name) => !(name in migrations));
  const missing = Object.keys(migrations).filter((name) => !executed.includes(name));
  // Kysely refuses a database with migrations it was not given; a newer one is fine as it is.
  if (newer.length > 0) {
    if (missing.length > 0) {
      throw new Error(
        `database migration failed: the database is at a newer schema (${newer.join(', ')}) but lacks ${missing.join(', ')}`,
      );
    }
    return { applied: [], current: executed, newer };
  }
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r: MigrationResult) => r.status === 'Error');
    const where = failed ? ` in migration ${failed.migrationName}` : '';
    throw new Error(`database migration failed${where}: ${(error as Error).message ?? String(error)}`);
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const current = (await migrator.getMigrations()).filter((m) => m.executedAt).map((m) => m.name);
  return { applied, current, newer: [] };
}
