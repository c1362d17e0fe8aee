/** `bosun db migrate`: applies pending migrations and prints what was applied. */
import type { Command } from 'commander';
import { loadConfig } from '../../config/load.ts';
import { openRuntimeDatabase } from '../../runtime-database.ts';
import { emit } from '../output.ts';

export function register(db: Command): void {
  db.command('migrate')
    .description('apply pending schema migrations (the server also does this at start)')
    .option('-c, --config <file>', 'YAML configuration file')
    .option('--json', 'print JSON')
    .action(async (opts: { config?: string; json?: boolean }) => {
      const config = loadConfig({ file: opts.config });
      const { db: database, migrated: outcome } = await openRuntimeDatabase(config);
      try {
        emit(opts.json, { dialect: database.dialect, ...outcome }, () => {
          const applied = outcome.applied.length
            ? outcome.applied.join(', ')
            : 'nothing (already up to date)';
          process.stdout.write(
            `${database.dialect}: applied ${applied}; schema at ${outcome.current.at(-1)}` +
              (outcome.newer.length ? ` (newer than this release: ${outcome.newer.join(', ')})` : '') +
              '\n',
          );
        });
      } finally {
        await database.close();
      }
    });
}
