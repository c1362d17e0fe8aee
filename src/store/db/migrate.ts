/** Applies the in-code migrations; safe to run from several replicas at once (Kysely locks). */
import { type Migration, type MigrationResult, Migrator } from 'kysely/migration';
import type { Database } from './database.ts';
import { MIGRATIONS } from './migrations/index.ts';

export interface MigrateOutcome {
  applied: string[];
  current: string[];
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
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r: MigrationResult) => r.status === 'Error');
    const where = failed ? ` in migration ${failed.migrationName}` : '';
    throw new Error(`database migration failed${where}: ${(error as Error).message ?? String(error)}`);
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const current = (await migrator.getMigrations()).filter((m) => m.executedAt).map((m) => m.name);
  return { applied, current };
}
