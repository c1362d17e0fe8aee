/**
 * `bosun vim register|list|show|default|delete`: the VIM registry of a running server, through
 * its admin API (/bosun/v1/vims; the bosun:admin scope when authentication is on). Credentials
 * go in with the OpenStack flags (the password from a file, the environment or a prompt), a
 * Kubernetes kubeconfig (--kubeconfig, --context), or --access/--access-file, and never come back. The server checks a VIM before registering it;
 * `show` adds the VIM's zones, hosts and free capacity, read live.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import {
  deleteVim,
  describeVim,
  getVim,
  listVims,
  registerVim,
  setDefaultVim,
  type VimDescription,
  type VimRecord,
} from '../api-client/vims.ts';
import { collect, keyValues } from '../key-values.ts';
import { CliError, emit, emitRecords, printTable, withIdOnly } from '../output.ts';
import { readSecret } from '../secret-input.ts';

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
  authUrl?: string;
  username?: string;
  projectName?: string;
  projectDomain: string;
  userDomain: string;
  region?: string;
  passwordFile?: string;
  caBundle?: string;
  kubeconfig?: string;
  context?: string;
}

/** Tacker's VIM type names, accepted by --type for the vimType Bosun stores. */
const TYPE_ALIASES: Record<string, string> = {
  openstack: 'ETSINFV.OPENSTACK_KEYSTONE.V_3',
  kubernetes: 'ETSINFV.KUBERNETES.V_1',
};

/** The environment variable --username's password is read from (else --password-file, else a prompt). */
const PASSWORD_ENV = 'BOSUN_VIM_PASSWORD';

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

function readCaBundle(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`--ca-bundle ${file}: ${(err as Error).message}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new CliError(`--ca-bundle ${file}: not a PEM certificate bundle (no BEGIN CERTIFICATE line)`);
  }
  return pem;
}

/**
 * The OpenStack (Keystone v3) connection of the flags: interfaceInfo.endpoint and ssl_ca_cert,
 * accessInfo username, password, project, projectDomain, userDomain, region — the SOL003
 * vimConnectionInfo names.
 */
async function keystoneConnection(opts: RegisterOptions): Promise<{
  interfaceInfo: Record<string, unknown>;
  accessInfo: Record<string, unknown>;
}> {
  const interfaceInfo: Record<string, unknown> = {};
  const accessInfo: Record<string, unknown> = {};
  if (opts.authUrl) interfaceInfo.endpoint = opts.authUrl;
  if (opts.caBundle) interfaceInfo.ssl_ca_cert = readCaBundle(opts.caBundle);
  if (opts.username === undefined) return { interfaceInfo, accessInfo };
  if (!opts.projectName) throw new CliError('--username needs --project-name (the project to scope to)');
  if (!opts.authUrl && !opts.endpoint)
    throw new CliError('--username needs --auth-url (Keystone v3, e.g. https://keystone:5000/v3)');
  Object.assign(accessInfo, {
    username: opts.username,
    password: await readSecret({
      file: opts.passwordFile,
      env: PASSWORD_ENV,
      prompt: `Password of ${opts.username}`,
      fileFlag: '--password-file',
    }),
    project: opts.projectName,
    projectDomain: opts.projectDomain,
    userDomain: opts.userDomain,
    ...(opts.region ? { region: opts.region } : {}),
  });
  return { interfaceInfo, accessInfo };
}

const free = (total: number, used: number) => `${Math.max(total - used, 0)}/${total}`;

/** The VIM's zones and hosts with their free vCPU and RAM, as a table. */
function printResources(d: VimDescription): void {
  if (d.hostsVisible === false) {
    say(
      `zones: ${d.zones.map((z) => z.name).join(', ') || 'none'} (hosts and capacity need an admin role at the VIM)`,
    );
    return;
  }
  const rows = d.zones.flatMap((z) =>
    z.hosts.length === 0
      ? [{ zone: z.name, host: '(no host)' }]
      : z.hosts.map((h) => ({
          zone: z.name,
          host: h.name,
          state: h.up ? 'up' : 'down',
          'vCPU free': free(h.vcpus, h.vcpusUsed),
          'RAM MiB free': free(h.ramMb, h.ramMbUsed),
        })),
  );
  if (rows.length === 0) say('no zones');
  else printTable(rows, ['zone', 'host', 'state', 'vCPU free', 'RAM MiB free']);
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
    ['zones', v.zones?.join(', ')],
    ['createdAt', v.createdAt],
    ['updatedAt', v.updatedAt],
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
      'openstack (= ETSINFV.OPENSTACK_KEYSTONE.V_3), kubernetes (= ETSINFV.KUBERNETES.V_1) or a vimType, e.g. BOSUN.SIM.V1',
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
    .option('--auth-url <url>', 'OpenStack: Keystone v3 URL (interfaceInfo.endpoint)')
    .option(
      '--username <name>',
      'OpenStack: the user (its password from --password-file, $BOSUN_VIM_PASSWORD or a prompt)',
    )
    .option('--project-name <name>', 'OpenStack: the project to scope to')
    .option('--project-domain <name>', "OpenStack: the project's domain", 'Default')
    .option('--user-domain <name>', "OpenStack: the user's domain", 'Default')
    .option('--region <name>', "OpenStack: the catalog's region (default: the VIM's only one)")
    .option('--password-file <file>', 'OpenStack: a file holding the password (- reads stdin)')
    .option(
      '--ca-bundle <file>',
      "PEM CA bundle trusted for the VIM's HTTPS endpoints (interfaceInfo.ssl_ca_cert)",
    )
    .option(
      '--kubeconfig <file>',
      "Kubernetes: the API server, its CA and the credentials from a kubeconfig's context",
    )
    .option('--context <name>', 'Kubernetes: the kubeconfig context (default: its current-context)')
    .action(async (opts: RegisterOptions) => {
      const keystone = await keystoneConnection(opts);
      if (opts.context && !opts.kubeconfig) throw new CliError('--context needs --kubeconfig');
      const kube = opts.kubeconfig
        ? (await import('../kubeconfig.ts')).kubeconfigConnection(opts.kubeconfig, opts.context)
        : { interfaceInfo: {}, accessInfo: {} };
      const interfaceInfo = {
        ...keyValues(opts.interface, '--interface', 'json-like'),
        ...kube.interfaceInfo,
        ...keystone.interfaceInfo,
      };
      if (opts.endpoint) interfaceInfo.endpoint = opts.endpoint;
      const accessInfo = {
        ...(opts.accessFile ? readAccessFile(opts.accessFile) : {}),
        ...keyValues(opts.access, '--access', 'json-like'),
        ...kube.accessInfo,
        ...keystone.accessInfo,
      };
      const extra = keyValues(opts.extra, '--extra', 'json-like');
      const made = await registerVim(ApiClient.from(opts), {
        name: opts.name,
        vimType: TYPE_ALIASES[opts.type] ?? opts.type,
        ...(opts.description ? { description: opts.description } : {}),
        ...(opts.project ? { projectId: opts.project } : {}),
        ...(Object.keys(interfaceInfo).length ? { interfaceInfo } : {}),
        ...(Object.keys(accessInfo).length ? { accessInfo } : {}),
        ...(Object.keys(extra).length ? { extra } : {}),
        ...(opts.default ? { isDefault: true } : {}),
      });
      emitRecords(opts, made, () => {
        say(`registered VIM ${made.id} (${made.name}, ${made.vimType})${made.isDefault ? ', default' : ''}`);
        if (made.zones) say(`zones: ${made.zones.join(', ') || 'none'}`);
      });
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

  sub(
    vim,
    'show <id>',
    'show one VIM (never its credentials) and its zones, hosts and free capacity, read live',
  )
    .option('--no-resources', 'do not ask the VIM for its zones and hosts')
    .action(async (id: string, opts: Common & { resources: boolean }) => {
      const api = ApiClient.from(opts);
      const v = await getVim(api, id);
      let resources: VimDescription | undefined;
      let unreadable: string | undefined;
      if (opts.resources) {
        try {
          resources = await describeVim(api, id);
        } catch (err) {
          // The record is shown all the same: an unreachable VIM is what one looks at it for.
          if (!(err instanceof CliError)) throw err;
          unreadable = err.message;
        }
      }
      const shown = {
        ...v,
        ...(resources ? { resources } : {}),
        ...(unreadable ? { resourcesError: unreadable } : {}),
      };
      emit(opts.json, shown, () => {
        printVim(v);
        if (unreadable) say(`resources      not readable: ${unreadable}`);
        if (resources) {
          say('');
          printResources(resources);
        }
      });
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
