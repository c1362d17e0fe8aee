/** `bosun serve`: runs the server in the foreground until SIGTERM/SIGINT. */
import type { Command } from 'commander';
import type { Role } from '../../runtime.ts';
import { CliError } from '../output.ts';

const ROLES: Role[] = ['all', 'api', 'worker'];

export function register(serve: Command): void {
  serve
    .option('-c, --config <file>', 'YAML configuration file (default: $BOSUN_CONFIG, then ./bosun.yaml)')
    .option('--role <role>', 'all | api | worker', 'all')
    .option('--port <port>', 'override server.port')
    .option('--bind <address>', 'override server.bind')
    .option('--pretty', 'readable log lines instead of JSON (the default when stdout is a terminal)')
    .option('--no-pretty', 'JSON log lines even on a terminal')
    .action(
      async (opts: { config?: string; role: string; port?: string; bind?: string; pretty?: boolean }) => {
        if (!ROLES.includes(opts.role as Role))
          throw new CliError(`--role must be one of ${ROLES.join(', ')}`);
        const server: Record<string, unknown> = {};
        if (opts.port !== undefined) server.port = Number(opts.port);
        if (opts.bind !== undefined) server.bind = opts.bind;
        // Loaded here rather than at the top, so that `bosun serve --help` does not load the server.
        const { loadConfig } = await import('../../config/load.ts');
        const { startServer } = await import('../../http/server.ts');
        const { createLogger } = await import('../../logging.ts');
        const { prettyDestination } = await import('../../pretty-log.ts');
        const config = loadConfig({ file: opts.config, overrides: { server } });
        const pretty = opts.pretty ?? process.stdout.isTTY === true;
        const logger = pretty ? createLogger(config.log.level, prettyDestination()) : undefined;
        const running = await startServer(config, { role: opts.role as Role, logger });
        const stop = (signal: string) => {
          running.context.logger.info({ signal }, 'shutting down');
          running.close().then(
            () => process.exit(0),
            (err) => {
              running.context.logger.error({ err }, 'shutdown failed');
              process.exit(1);
            },
          );
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      },
    );
}
