/** `bosun config show`: the effective configuration (file + environment + defaults), secrets masked. */
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { envLeaves } from '../../config/env.ts';
import { loadConfig, resolveConfigFile } from '../../config/load.ts';
import { maskSecrets } from '../../config/mask.ts';
import { ConfigSchema } from '../../config/schema.ts';
import { emit, printTable } from '../output.ts';

export function register(config: Command): void {
  config
    .command('show')
    .description('print the effective configuration with secrets masked')
    .option('-c, --config <file>', 'YAML configuration file')
    .option('--json', 'print JSON')
    .option('--env', 'list the BOSUN_* variable of every key instead')
    .action((opts: { config?: string; json?: boolean; env?: boolean }) => {
      if (opts.env) {
        const rows = envLeaves(ConfigSchema).map((l) => ({
          variable: l.variable,
          key: l.path.join('.'),
          default: JSON.stringify(l.schema.default ?? ''),
          description: l.schema.description ?? '',
        }));
        emit(opts.json, rows, () => printTable(rows, ['variable', 'key', 'default', 'description']));
        return;
      }
      const effective = maskSecrets(loadConfig({ file: opts.config }));
      const file = resolveConfigFile({ file: opts.config });
      emit(opts.json, effective, () => {
        process.stdout.write(
          `# source: ${file ?? 'defaults'} + BOSUN_* environment\n${stringify(effective)}`,
        );
      });
    });
}
