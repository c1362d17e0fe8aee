/**
 * `bosun vim register|list|show|default|delete`: the VIM registry of a running server, through
 * its admin API (/bosun/v1/vims; the bosun:admin scope when authentication is on). Credentials
 * go in with --access (or --access-file) and never come back.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import {
  deleteVim,
  getVim,
  listVims,
  registerVim,
  setDefaultVim,
  type VimRecord,
} from '../api-client/vims.ts';
import { collect, keyValues } from '../key-values.ts';
import { CliError, emit, emitRecords, printTable, withIdOnly } from '../output.ts';

interface Common extends ConnectionOptions {
  json?: boolean;
}

interface RegisterOptions extends Common {
  name: string;
  type: string;
  description?: string;
  project?: string;
  endpoint?: string;
  interface: string[];
  access: string[];
  accessFile?: string;
  extra: string[];
  default?: boolean;
}

const say = (line: string) => process.stdout.write(line + '\n');

function readAccessFile(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(`--access-file ${file}: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CliError(`--access-file ${file}: expected a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

const row = (v: VimRecord) => ({
  id: v.id,
  name: v.name,
  type: v.vimType,
  project: v.projectId,
  default: v.isDefault ? 'yes' : '',
  credentials: v.hasCredentials ? 'sealed' : '',
});

function printVim(v: VimRecord): void {
  const lines: [string, unknown][] = [
    ['id', v.id],
    ['name', v.name],
    ['vimType', v.vimType],
    ['project', v.shared ? `${v.projectId} (shared)` : v.projectId],
    ['description', v.description || undefined],
    ['default', v.isDefault],
    ['interfaceInfo', JSON.stringify(v.interfaceInfo)],
    ['extra', JSON.stringify(v.extra)],
    ['credentials', v.hasCredentials ? 'stored, sealed (never shown)' : 'none'],
    ['createdAt', v.createdAt],
  ];
  for (const [key, value] of lines) if (value !== undefined) say(`${key.padEnd(14)} ${String(value)}`);
}

function sub(parent: Command, spec: string, description: string): Command {
  return withConnectionOptions(parent.command(spec).description(description)).option('--json', 'print JSON');
}

export function register(vim: Command): void {
  withIdOnly(sub(vim, 'register', 'register a VIM'))
    .requiredOption('--name <name>', 'unique name in its project')
    .requiredOption(
      '--type <vimType>',
      'e.g. BOSUN.SIM.V1, ETSINFV.OPENSTACK_KEYSTONE.V_3, ETSINFV.KUBERNETES.V_1',
    )
    .option('--description <text>', 'what it is')
    .option('--project <project>', "the project it belongs to (default: the caller's); * = every project")
    .option('--endpoint <url>', 'interfaceInfo.endpoint')
    .option('--interface <key=value>', 'an interfaceInfo entry (repeat)', collect, [] as string[])
    .option(
      '--access <key=value>',
      'an accessInfo entry: credentials, sealed at rest (repeat)',
      collect,
      [] as string[],
    )
    .option('--access-file <file>', 'accessInfo as a JSON file (keeps secrets out of the command line)')
    .option('--extra <key=value>', 'an extra entry (repeat)', collect, [] as string[])
    .option('--default', 'make it the default VIM of its project')
    .action(async (opts: RegisterOptions) => {
      const interfaceInfo = keyValues(opts.interface, '--interface', 'json-like');
      if (opts.endpoint) interfaceInfo.endpoint = opts.endpoint;
      const accessInfo = {
        ...(opts.accessFile ? readAccessFile(opts.accessFile) : {}),
        ...keyValues(opts.access, '--access', 'json-like'),
      };
      const extra = keyValues(opts.extra, '--extra', 'json-like');
      const made = await registerVim(ApiClient.from(opts), {
        name: opts.name,
        vimType: opts.type,
        ...(opts.description ? { description: opts.description } : {}),
        ...(opts.project ? { projectId: opts.project } : {}),
        ...(Object.keys(interfaceInfo).length ? { interfaceInfo } : {}),
        ...(Object.keys(accessInfo).length ? { accessInfo } : {}),
        ...(Object.keys(extra).length ? { extra } : {}),
        ...(opts.default ? { isDefault: true } : {}),
      });
      emitRecords(opts, made, () =>
        say(`registered VIM ${made.id} (${made.name}, ${made.vimType})${made.isDefault ? ', default' : ''}`),
      );
    });

  withIdOnly(sub(vim, 'list', 'list registered VIMs'))
    .option('--project <project>', "a project's VIMs and the shared ones")
    .action(async (opts: Common & { project?: string }) => {
      const vims = await listVims(ApiClient.from(opts), opts.project);
      emitRecords(opts, vims, () => {
        if (vims.length === 0) say('no VIMs');
        else printTable(vims.map(row), ['id', 'name', 'type', 'project', 'default', 'credentials']);
      });
    });

  sub(vim, 'show <id>', 'show one VIM (never its credentials)').action(async (id: string, opts: Common) => {
    const v = await getVim(ApiClient.from(opts), id);
    emit(opts.json, v, () => printVim(v));
  });

  sub(vim, 'default <id>', 'make a VIM the default of a project')
    .option('--project <project>', "the project (default: the VIM's own)")
    .action(async (id: string, opts: Common & { project?: string }) => {
      const v = await setDefaultVim(ApiClient.from(opts), id, opts.project);
      emit(opts.json, v, () => say(`VIM ${v.id} is the default of project ${opts.project ?? v.projectId}`));
    });

  sub(vim, 'delete <id>', 'delete a VIM (refused while VNF instances use it)').action(
    async (id: string, opts: Common) => {
      await deleteVim(ApiClient.from(opts), id);
      emit(opts.json, { deleted: id }, () => say(`deleted VIM ${id}`));
    },
  );
}
