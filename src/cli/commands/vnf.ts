/**
 * `bosun vnf create|list|show|update|delete|instantiate|terminate|scale|scale-to-level|heal|
 * change-flavour|change-ext-conn|change-package|operate|sync`: VNF instances and their lifecycle
 * operations over /vnflcm/v2 (or /vnflcm/v1 with --api-version 1), table or --json output;
 * `sync` reads an instance back from its VIM through the admin API.
 *
 * Request bodies come from flags for the common fields, and from --request-file (a JSON
 * request, `-` for stdin) for everything else; flags override the file's fields, and --param
 * k=v adds to additionalParams. Every operation takes --wait (see lcm-common.ts).
 */
import type { Command } from 'commander';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import type { LcmApi, VnfInstance } from '../api-client/vnf-instances.ts';
import { collect, keyValues } from '../key-values.ts';
import { CliError, emit, emitRecords, printTable, withIdOnly } from '../output.ts';
import {
  finish,
  type LcmOptions,
  lcmCommand,
  lcmOf,
  positiveInt,
  readJsonArray,
  readJsonObject,
  say,
  type WaitOptions,
  withWait,
} from './lcm-common.ts';

type Body = Record<string, unknown>;

interface OperationOptions extends WaitOptions {
  requestFile?: string;
  param: string[];
  [flag: string]: unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const cell = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** The request: --request-file's object (or {}), then --param into additionalParams. */
async function baseBody(opts: OperationOptions): Promise<Body> {
  const body = opts.requestFile ? await readJsonObject(opts.requestFile) : {};
  if (opts.param?.length) {
    const given = body.additionalParams;
    const additional = given && typeof given === 'object' && !Array.isArray(given) ? (given as Body) : {};
    body.additionalParams = { ...additional, ...keyValues(opts.param, '--param') };
  }
  return body;
}

/** Sets `key` when the flag was given. */
function set(body: Body, key: string, value: unknown): void {
  if (value !== undefined) body[key] = value;
}

function need(body: Body, key: string, hint: string): void {
  if (body[key] === undefined) throw new CliError(`${hint} (or a --request-file with ${key})`);
}

function oneOf(opts: Record<string, unknown>, flags: string[]): string | undefined {
  const given = flags.filter((f) => opts[f]);
  if (given.length > 1) {
    const names = flags.map((f) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    throw new CliError(`give one of ${names.join(', ')}, not several`);
  }
  return given[0];
}

/** --ext-vl-file and --ext-managed-vl-file into the body. */
async function connectivity(body: Body, opts: OperationOptions): Promise<void> {
  if (opts.extVlFile) body.extVirtualLinks = await readJsonArray(String(opts.extVlFile), '--ext-vl-file');
  if (opts.extManagedVlFile) {
    body.extManagedVirtualLinks = await readJsonArray(String(opts.extManagedVlFile), '--ext-managed-vl-file');
  }
}

interface OperationSpec {
  /** The command, e.g. `scale`. */
  name: string;
  description: string;
  /** The task resource, e.g. `scale_to_level`. */
  task: string;
  options: (command: Command) => Command;
  build: (body: Body, opts: OperationOptions, lcm: LcmApi) => Promise<void> | void;
  /** Runs the operation another way (v1 change-package: a PATCH); returns the op occ id. */
  start?: (lcm: LcmApi, id: string, body: Body, opts: OperationOptions) => Promise<string> | undefined;
}

const withConnectivity = (c: Command) =>
  c
    .option('--ext-vl-file <file>', 'extVirtualLinks: a JSON array of ExtVirtualLinkData')
    .option(
      '--ext-managed-vl-file <file>',
      'extManagedVirtualLinks: a JSON array of ExtManagedVirtualLinkData',
    );

const OPERATIONS: readonly OperationSpec[] = [
  {
    name: 'instantiate',
    description: 'instantiate a VNF instance in a deployment flavour',
    task: 'instantiate',
    options: (c) =>
      withConnectivity(
        c
          .option('--flavour <id>', 'flavourId: a deployment flavour of the VNFD')
          .option('--level <id>', "instantiationLevelId (default: the flavour's default level)"),
      ),
    build: async (body, opts) => {
      set(body, 'flavourId', opts.flavour);
      set(body, 'instantiationLevelId', opts.level);
      await connectivity(body, opts);
      need(body, 'flavourId', 'give --flavour');
    },
  },
  {
    name: 'terminate',
    description: 'terminate a VNF instance: --forceful, or --graceful [--timeout s]',
    task: 'terminate',
    options: (c) =>
      c
        .option('--forceful', 'terminationType FORCEFUL: at once')
        .option('--graceful', 'terminationType GRACEFUL: let the VNF stop first')
        .option('--timeout <seconds>', 'gracefulTerminationTimeout (with --graceful)'),
    build: (body, opts) => {
      const type = oneOf(opts, ['forceful', 'graceful']);
      if (type) body.terminationType = type.toUpperCase();
      if (opts.timeout !== undefined) {
        if (body.terminationType !== 'GRACEFUL') throw new CliError('--timeout applies to --graceful only');
        body.gracefulTerminationTimeout = positiveInt('--timeout', String(opts.timeout));
      }
      need(body, 'terminationType', 'give --forceful or --graceful');
    },
  },
  {
    name: 'scale',
    description: 'scale a VNF instance out or in along a scaling aspect',
    task: 'scale',
    options: (c) =>
      c
        .option('--aspect <id>', 'aspectId: a scaling aspect of the flavour')
        .option('--out', 'SCALE_OUT')
        .option('--in', 'SCALE_IN')
        .option('--steps <n>', 'numberOfSteps (default 1)'),
    build: (body, opts) => {
      const type = oneOf(opts, ['out', 'in']);
      if (type) body.type = type === 'out' ? 'SCALE_OUT' : 'SCALE_IN';
      set(body, 'aspectId', opts.aspect);
      set(body, 'numberOfSteps', positiveInt('--steps', opts.steps as string | undefined));
      need(body, 'type', 'give --out or --in');
      need(body, 'aspectId', 'give --aspect');
    },
  },
  {
    name: 'scale-to-level',
    description: 'scale a VNF instance to an instantiation level, or to scale levels per aspect',
    task: 'scale_to_level',
    options: (c) =>
      c
        .option('--level <id>', 'instantiationLevelId')
        .option(
          '--aspect-level <aspect=n>',
          'scaleInfo: this aspect at level n (repeat)',
          collect,
          [] as string[],
        ),
    build: (body, opts) => {
      const levels = opts.aspectLevel as string[];
      if (opts.level && levels.length) throw new CliError('give --level or --aspect-level, not both');
      set(body, 'instantiationLevelId', opts.level);
      if (levels.length) {
        body.scaleInfo = levels.map((pair) => {
          const eq = pair.indexOf('=');
          const level = eq > 0 ? positiveInt('--aspect-level', pair.slice(eq + 1), 0) : undefined;
          if (level === undefined) throw new CliError(`--aspect-level expects aspect=level, got '${pair}'`);
          return { aspectId: pair.slice(0, eq), scaleLevel: level };
        });
      }
      if (body.instantiationLevelId === undefined && body.scaleInfo === undefined) {
        throw new CliError('give --level or --aspect-level (or a --request-file)');
      }
    },
  },
  {
    name: 'heal',
    description: 'heal VNFCs (--vnfc) or the whole VNF instance',
    task: 'heal',
    options: (c) =>
      c
        .option(
          '--vnfc <id>',
          'vnfcInstanceId: a VNFC to heal (repeat; v2: vnfcInfo ids, v1: vnfcResourceInfo ids)',
          collect,
          [] as string[],
        )
        .option('--cause <text>', 'why'),
    build: (body, opts) => {
      const vnfcs = opts.vnfc as string[];
      if (vnfcs.length) body.vnfcInstanceId = vnfcs;
      set(body, 'cause', opts.cause);
    },
  },
  {
    name: 'change-flavour',
    description: 'change the deployment flavour of a VNF instance',
    task: 'change_flavour',
    options: (c) =>
      withConnectivity(
        c
          .option('--flavour <id>', 'newFlavourId')
          .option('--level <id>', 'instantiationLevelId in the new flavour'),
      ),
    build: async (body, opts) => {
      set(body, 'newFlavourId', opts.flavour);
      set(body, 'instantiationLevelId', opts.level);
      await connectivity(body, opts);
      need(body, 'newFlavourId', 'give --flavour');
    },
  },
  {
    name: 'change-ext-conn',
    description: 'change the external connectivity of a VNF instance',
    task: 'change_ext_conn',
    options: (c) => c.option('--ext-vl-file <file>', 'extVirtualLinks: a JSON array of ExtVirtualLinkData'),
    build: async (body, opts) => {
      await connectivity(body, opts);
      need(body, 'extVirtualLinks', 'give --ext-vl-file');
    },
  },
  {
    name: 'change-package',
    description: 'move a VNF instance to the VNFD of another package (v1: a PATCH with vnfdId)',
    task: 'change_vnfpkg',
    options: (c) => withConnectivity(c.option('--vnfd-id <id>', 'vnfdId of the target package')),
    build: async (body, opts) => {
      set(body, 'vnfdId', opts.vnfdId);
      await connectivity(body, opts);
      need(body, 'vnfdId', 'give --vnfd-id');
    },
    // SOL003 v2.6.1 has no change_vnfpkg: its PATCH with vnfdId moves the instance instead.
    start: (lcm, id, body, opts) => {
      if (lcm.major !== 'v1') return undefined;
      if (opts.requestFile || opts.param.length || Object.keys(body).some((k) => k !== 'vnfdId')) {
        throw new CliError(
          '/vnflcm/v1 has no change_vnfpkg: its change of package is a PATCH with vnfdId only (give --vnfd-id alone)',
        );
      }
      return lcm.modifyInstance(id, { vnfdId: body.vnfdId });
    },
  },
  {
    name: 'operate',
    description: 'start or stop a VNF instance (or some of its VNFCs)',
    task: 'operate',
    options: (c) =>
      c
        .option('--start', 'changeStateTo STARTED')
        .option('--stop', 'changeStateTo STOPPED')
        .option('--graceful', 'stopType GRACEFUL')
        .option('--forceful', 'stopType FORCEFUL')
        .option('--timeout <seconds>', 'gracefulStopTimeout (with --graceful)')
        .option('--vnfc <id>', 'vnfcInstanceId: only this VNFC (repeat)', collect, [] as string[]),
    build: (body, opts) => {
      const state = oneOf(opts, ['start', 'stop']);
      if (state) body.changeStateTo = state === 'start' ? 'STARTED' : 'STOPPED';
      const stop = oneOf(opts, ['graceful', 'forceful']);
      if (stop) body.stopType = stop.toUpperCase();
      if (opts.timeout !== undefined) {
        if (body.stopType !== 'GRACEFUL') throw new CliError('--timeout applies to --graceful only');
        body.gracefulStopTimeout = positiveInt('--timeout', String(opts.timeout), 0);
      }
      const vnfcs = opts.vnfc as string[];
      if (vnfcs.length) body.vnfcInstanceId = vnfcs;
      need(body, 'changeStateTo', 'give --start or --stop');
    },
  },
];

function registerOperation(vnf: Command, spec: OperationSpec): void {
  const command = withWait(spec.options(lcmCommand(vnf, `${spec.name} <id>`, spec.description)))
    .option('--request-file <file>', 'the request body as JSON (- for stdin); flags override its fields')
    .option(
      '--param <key=value>',
      'additionalParams entry (repeat; JSON values such as true or 3 as JSON)',
      collect,
      [] as string[],
    );
  command.action(async (id: string, opts: OperationOptions) => {
    const lcm = lcmOf(opts);
    const body = await baseBody(opts);
    await spec.build(body, opts, lcm);
    const opOccId = (await spec.start?.(lcm, id, body, opts)) ?? (await lcm.startTask(id, spec.task, body));
    await finish(lcm, opOccId, opts, { what: `${spec.name} of ${id}` });
  });
}

// ---------------------------------------------------------------- instance resources

const row = (v: VnfInstance) => ({
  id: v.id,
  name: v.vnfInstanceName,
  vnfdId: v.vnfdId,
  product: v.vnfProductName,
  state: v.instantiationState,
  flavour: v.instantiatedVnfInfo?.flavourId,
  vnfState: v.instantiatedVnfInfo?.vnfState,
  vnfcs: v.instantiatedVnfInfo ? (v.instantiatedVnfInfo.vnfcResourceInfo?.length ?? 0) : undefined,
});

function printInstance(v: VnfInstance): void {
  const line = (key: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== '') say(`${key.padEnd(22)} ${cell(value)}`);
  };
  const info = v.instantiatedVnfInfo;
  for (const [key, value] of Object.entries(v)) {
    if (['_links', 'instantiatedVnfInfo'].includes(key)) continue;
    line(key, value);
  }
  if (!info) return;
  line('flavourId', info.flavourId);
  line('vnfState', info.vnfState);
  const max = new Map((info.maxScaleLevels ?? []).map((s) => [s.aspectId, s.scaleLevel]));
  for (const s of info.scaleStatus ?? []) {
    line(
      `scaleLevel ${s.aspectId}`,
      max.has(s.aspectId) ? `${s.scaleLevel} of ${max.get(s.aspectId)}` : s.scaleLevel,
    );
  }
  const counts = [
    `${info.vnfVirtualLinkResourceInfo?.length ?? 0} virtual link(s)`,
    `${info.virtualStorageResourceInfo?.length ?? 0} storage(s)`,
    `${info.extCpInfo?.length ?? 0} external CP(s)`,
  ];
  line('resources', counts.join(', '));
  const vnfcs = info.vnfcResourceInfo ?? [];
  if (!vnfcs.length) return;
  const byResource = new Map((info.vnfcInfo ?? []).map((c) => [c.vnfcResourceInfoId, c]));
  say('');
  printTable(
    vnfcs.map((r) => ({
      vnfcResource: r.id,
      vdu: r.vduId,
      vnfc: byResource.get(r.id)?.id,
      state: byResource.get(r.id)?.vnfcState,
      zone: r.zoneId ?? str(r.metadata?.zone),
      host: str(r.metadata?.host),
      server: r.computeResource?.resourceId,
    })),
    ['vnfcResource', 'vdu', ...(info.vnfcInfo ? ['vnfc', 'state'] : []), 'zone', 'host', 'server'],
  );
}

/** The SOL013 list flags (withListOptions) of any list command. */
export interface ListFlags {
  json?: boolean;
  filter?: string;
  allFields?: boolean;
  fields?: string;
  excludeFields?: string;
  excludeDefault?: boolean;
}

export interface ListOptions extends LcmOptions, ListFlags {}

/** The SOL013 query of a list command; `tableFields` are asked for when printing a table. */
export function listQuery(opts: ListFlags, tableFields?: string): URLSearchParams {
  const query = new URLSearchParams();
  if (opts.filter) query.set('filter', opts.filter);
  if (opts.allFields) query.set('all_fields', '');
  if (opts.fields) query.set('fields', opts.fields);
  if (opts.excludeFields) query.set('exclude_fields', opts.excludeFields);
  if (opts.excludeDefault) query.set('exclude_default', '');
  const selectors = opts.allFields || opts.fields || opts.excludeFields || opts.excludeDefault;
  if (!opts.json && !selectors && tableFields) query.set('fields', tableFields);
  return query;
}

export const withListOptions = (command: Command, example: string) =>
  command
    .option('--filter <expr>', `SOL013 attribute filter, e.g. ${example}`)
    .option('--all-fields', 'include every attribute')
    .option('--fields <list>', 'include these complex attributes')
    .option('--exclude-fields <list>', 'exclude these complex attributes')
    .option('--exclude-default', 'exclude the complex attributes excluded by default');

function registerResources(vnf: Command): void {
  withIdOnly(
    lcmCommand(
      vnf,
      'create',
      'create a VNF instance (NOT_INSTANTIATED) from the VNFD of an onboarded package',
    ),
  )
    .option('--vnfd-id <id>', 'vnfdId of an ONBOARDED, ENABLED package')
    .option('--name <name>', 'vnfInstanceName')
    .option('--description <text>', 'vnfInstanceDescription')
    .option('--metadata <key=value>', 'metadata entry (repeat; JSON values as JSON)', collect, [] as string[])
    .option('--request-file <file>', 'the CreateVnfRequest as JSON (- for stdin); flags override its fields')
    .action(
      async (
        opts: LcmOptions & {
          vnfdId?: string;
          name?: string;
          description?: string;
          metadata: string[];
          requestFile?: string;
        },
      ) => {
        const body: Body = opts.requestFile ? await readJsonObject(opts.requestFile) : {};
        set(body, 'vnfdId', opts.vnfdId);
        set(body, 'vnfInstanceName', opts.name);
        set(body, 'vnfInstanceDescription', opts.description);
        if (opts.metadata.length)
          body.metadata = { ...(body.metadata as Body), ...keyValues(opts.metadata, '--metadata') };
        need(body, 'vnfdId', 'give --vnfd-id');
        const v = await lcmOf(opts).createInstance(body);
        emitRecords(opts, v, () =>
          say(`${v.id}  ${v.instantiationState}  ${v.vnfProductName ?? ''} (vnfdId ${v.vnfdId})`),
        );
      },
    );

  withListOptions(
    withIdOnly(lcmCommand(vnf, 'list', 'list VNF instances (every page)')),
    '(eq,instantiationState,INSTANTIATED)',
  ).action(async (opts: ListOptions) => {
    const all = await lcmOf(opts).listInstances(listQuery(opts, 'instantiatedVnfInfo'));
    emitRecords(opts, all, () => {
      if (all.length === 0) say('no VNF instances');
      else
        printTable(all.map(row), [
          'id',
          'name',
          'vnfdId',
          'product',
          'state',
          'flavour',
          'vnfState',
          'vnfcs',
        ]);
    });
  });

  lcmCommand(vnf, 'show <id>', 'show a VNF instance, its scale levels and VNFCs').action(
    async (id: string, opts: LcmOptions) => {
      const v = await lcmOf(opts).getInstance(id);
      emit(opts.json, v, () => printInstance(v));
    },
  );

  withWait(lcmCommand(vnf, 'update <id>', 'modify a VNF instance (PATCH: a MODIFY_INFO operation)'))
    .option('--name <name>', 'vnfInstanceName')
    .option('--description <text>', 'vnfInstanceDescription')
    .option('--vnfd-id <id>', 'vnfdId (another VNFD of the same product)')
    .option(
      '--metadata <key=value>',
      'set a metadata entry (repeat; JSON values as JSON)',
      collect,
      [] as string[],
    )
    .option('--metadata-delete <key>', 'delete a metadata entry (repeat)', collect, [] as string[])
    .option('--extension <key=value>', 'set an extensions entry (repeat)', collect, [] as string[])
    .option('--extension-delete <key>', 'delete an extensions entry (repeat)', collect, [] as string[])
    .option('--if-match <etag>', 'only if the instance still has this ETag')
    .option(
      '--request-file <file>',
      'the VnfInfoModificationRequest as JSON (- for stdin); flags override it',
    )
    .action(
      async (
        id: string,
        opts: WaitOptions & {
          name?: string;
          description?: string;
          vnfdId?: string;
          metadata: string[];
          metadataDelete: string[];
          extension: string[];
          extensionDelete: string[];
          ifMatch?: string;
          requestFile?: string;
        },
      ) => {
        const body: Body = opts.requestFile ? await readJsonObject(opts.requestFile) : {};
        set(body, 'vnfInstanceName', opts.name);
        set(body, 'vnfInstanceDescription', opts.description);
        set(body, 'vnfdId', opts.vnfdId);
        const patch = (key: string, pairs: string[], deletes: string[], option: string) => {
          if (!pairs.length && !deletes.length) return;
          const map: Body = { ...(body[key] as Body), ...keyValues(pairs, option) };
          for (const k of deletes) map[k] = null;
          body[key] = map;
        };
        patch('metadata', opts.metadata, opts.metadataDelete, '--metadata');
        patch('extensions', opts.extension, opts.extensionDelete, '--extension');
        if (Object.keys(body).length === 0) {
          throw new CliError(
            'nothing to update: give --name, --description, --vnfd-id, --metadata, --extension or --request-file',
          );
        }
        const lcm = lcmOf(opts);
        const opOccId = await lcm.modifyInstance(id, body, opts.ifMatch);
        await finish(lcm, opOccId, opts, { what: `update of ${id}` });
      },
    );

  lcmCommand(vnf, 'delete <id>', 'delete a VNF instance (it must be NOT_INSTANTIATED)').action(
    async (id: string, opts: LcmOptions) => {
      await lcmOf(opts).deleteInstance(id);
      emit(opts.json, { deleted: id }, () => say(`deleted VNF instance ${id}`));
    },
  );
}

const SYNC_REASONS: Record<string, string> = {
  UNCHANGED: 'the VIM shows what the instance says',
  NOT_INSTANTIATED: 'it is not instantiated',
  BUSY: 'an operation holds it; try again when it ends',
  NOT_SUPPORTED: 'its VIM changes nothing by itself',
};

function registerSync(vnf: Command): void {
  withConnectionOptions(
    vnf
      .command('sync <id>')
      .description(
        'read a VNF instance back from its VIM now (Kubernetes: pods it replaced by itself); admin',
      ),
  )
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { json?: boolean } & ConnectionOptions) => {
      const { syncInstance } = await import('../api-client/instance-sync.ts');
      const outcome = await syncInstance(ApiClient.from(opts), id);
      emit(opts.json, outcome, () => {
        if (!outcome.synced) {
          say(`VNF instance ${id} unchanged: ${SYNC_REASONS[outcome.reason ?? ''] ?? outcome.reason}`);
          return;
        }
        say(
          `VNF instance ${id} synced with its VIM (recorded by LCM operation occurrence ${outcome.vnfLcmOpOccId})`,
        );
        printTable(
          (outcome.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => ({
            vnfc: v.id,
            vdu: v.vduId,
            resource: v.computeResource.resourceId,
          })),
          ['vnfc', 'vdu', 'resource'],
        );
      });
    });
}

export function register(vnf: Command): void {
  registerResources(vnf);
  registerSync(vnf);
  for (const spec of OPERATIONS) registerOperation(vnf, spec);
}
