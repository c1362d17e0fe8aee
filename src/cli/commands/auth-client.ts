/**
 * `bosun auth client add|list|remove`: the OAuth 2.0 clients of the built-in token endpoint.
 * Works on the database directly, so it needs no running server.
 */
import type { Command } from 'commander';
import { type Config, loadConfig } from '../../config/load.ts';
import { openRuntimeDatabase } from '../../runtime-database.ts';
import { type AuthClient, AuthClientStore } from '../../store/auth-clients/store.ts';
import { CliError, emit, emitRecords, type OutputOptions, printTable, withIdOnly } from '../output.ts';

interface CommonOptions {
  config?: string;
  json?: boolean;
}

interface AddOptions extends CommonOptions {
  project: string;
  scope: string[];
  id?: string;
  description?: string;
}

async function withStore<T>(opts: CommonOptions, run: (store: AuthClientStore) => Promise<T>): Promise<T> {
  const config: Config = loadConfig({ file: opts.config });
  const { db: database } = await openRuntimeDatabase(config);
  try {
    return await run(new AuthClientStore(database, { adminScope: config.auth.oauth2.adminScope }));
  } finally {
    await database.close();
  }
}

/** `--scope a --scope b` and `--scope "a b"` (or "a,b") alike. */
const collectScopes = (value: string, previous: string[]) => [
  ...previous,
  ...value.split(/[\s,]+/).filter(Boolean),
];

const row = (c: AuthClient) => ({
  id: c.clientId,
  project: c.project,
  scopes: c.scopes.join(' '),
  description: c.description,
  created: c.createdAt,
});

export function register(auth: Command): void {
  const client = auth.command('client').description('OAuth 2.0 clients of the built-in token endpoint');

  client
    .command('add')
    .description('create a client; its secret is printed once and only its hash is stored')
    .requiredOption('--project <project>', 'project the client acts in')
    .option('--scope <scope>', 'granted scope (repeat the option for several)', collectScopes, [])
    .option('--id <id>', 'client id (default: bosun-<random>)')
    .option('--description <text>', 'free text, e.g. who uses the client')
    .option('-c, --config <file>', 'YAML configuration file')
    .option('--json', 'print JSON')
    .action(async (opts: AddOptions) => {
      const added = await withStore(opts, (store) =>
        store.add({
          clientId: opts.id,
          project: opts.project,
          scopes: opts.scope,
          description: opts.description,
        }),
      );
      const { client: c, secret } = added;
      emit(opts.json, { ...c, clientSecret: secret }, () => {
        process.stdout.write(
          `client id:     ${c.clientId}\n` +
            `client secret: ${secret}\n` +
            `project:       ${c.project}\n` +
            `scopes:        ${c.scopes.join(' ')}\n` +
            'The secret is shown only once: store it now (Bosun keeps only a hash of it).\n',
        );
      });
    });

  withIdOnly(
    client
      .command('list')
      .description('list the clients (never their secrets)')
      .option('-c, --config <file>', 'YAML configuration file')
      .option('--json', 'print JSON'),
  ).action(async (opts: CommonOptions & OutputOptions) => {
    const clients = await withStore(opts, (store) => store.list());
    emitRecords(
      opts,
      clients,
      () => {
        if (clients.length === 0) process.stdout.write('no clients\n');
        else printTable(clients.map(row), ['id', 'project', 'scopes', 'description', 'created']);
      },
      (c) => c.clientId,
    );
  });

  client
    .command('remove <id>')
    .description('delete a client; tokens already issued to it stay valid until they expire')
    .option('-c, --config <file>', 'YAML configuration file')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: CommonOptions) => {
      const removed = await withStore(opts, (store) => store.remove(id));
      if (!removed) throw new CliError(`no client with id '${id}'`);
      emit(opts.json, { removed: id }, () => process.stdout.write(`removed client ${id}\n`));
    });
}
