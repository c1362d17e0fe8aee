/**
 * `bosun sim …`: the simulated VIM of a running server, through its admin API (/bosun/v1/sim;
 * the bosun:admin scope when authentication is on) — what it holds, and faults to inject:
 *
 *   bosun sim zone list | exhaust <zone> | restore <zone>
 *   bosun sim host list [--zone z] | down <host> | up <host>
 *   bosun sim server list [--instance id] [--host h] [--zone z] | show <id> | crash <id> [--reason r]
 *   bosun sim health [--instance id]
 *   bosun sim flavor list | image list
 *   bosun sim fault add --kind k (--fail [message] | --hang [--timeout ms]) [--count n] | list | remove <id> | clear
 */
import type { Command } from 'commander';
import { SIM_CALL_KINDS } from '../../vims/drivers/sim/calls.ts';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import {
  addFault,
  clearFaults,
  crashServer,
  getServer,
  health,
  listFaults,
  listFlavors,
  listHosts,
  listImages,
  listServers,
  listZones,
  removeFault,
  type SimServer,
  setHost,
  setZone,
} from '../api-client/sim.ts';
import { CliError, emit, emitRecords, type OutputOptions, printTable, withIdOnly } from '../output.ts';

interface Common extends ConnectionOptions, OutputOptions {}

const say = (line: string) => process.stdout.write(line + '\n');

function sub(parent: Command, spec: string, description: string): Command {
  return withConnectionOptions(parent.command(spec).description(description)).option('--json', 'print JSON');
}

/** A list command: --json and -q/--id-only. */
const listSub = (parent: Command, spec: string, description: string) =>
  withIdOnly(sub(parent, spec, description));

/** A table, or a line saying there is nothing; --id-only: the first column of each row. */
function table(
  opts: Common,
  rows: Record<string, unknown>[],
  columns: string[],
  value: unknown,
  none: string,
) {
  if (opts.idOnly)
    emitRecords(
      opts,
      rows,
      () => {},
      (row) => row[columns[0]],
    );
  else emit(opts.json, value, () => (rows.length ? printTable(rows, columns) : say(none)));
}

const pct = (used: number, total: number) => (total ? `${used}/${total}` : '0/0');

function printServer(s: SimServer): void {
  for (const [key, value] of Object.entries(s)) say(`${key.padEnd(20)} ${String(value)}`);
}

function positiveInt(option: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${option} expects a positive integer, got '${raw}'`);
  return n;
}

function registerZones(sim: Command): void {
  const zone = sim.command('zone').description('availability zones');
  listSub(zone, 'list', 'zones with their capacity and use').action(async (opts: Common) => {
    const zones = await listZones(ApiClient.from(opts));
    const rows = zones.map((z) => ({
      zone: z.name,
      hosts: `${z.hostsUp}/${z.hosts} up`,
      vcpus: pct(z.used.vcpus, z.capacity.vcpus),
      ramMb: pct(z.used.ramMb, z.capacity.ramMb),
      diskGb: pct(z.used.diskGb, z.capacity.diskGb),
      exhausted: z.exhausted ? 'yes' : '',
    }));
    table(opts, rows, ['zone', 'hosts', 'vcpus', 'ramMb', 'diskGb', 'exhausted'], zones, 'no zones');
  });
  for (const [action, description] of [
    ['exhaust', 'exhaust a zone: creating a server there fails with "No valid host was found"'],
    ['restore', 'give an exhausted zone its capacity back'],
  ] as const) {
    sub(zone, `${action} <zone>`, description).action(async (name: string, opts: Common) => {
      const z = await setZone(ApiClient.from(opts), name, action);
      emit(opts.json, z, () => say(`zone ${name} ${z.exhausted ? 'exhausted' : 'restored'}`));
    });
  }
}

function registerHosts(sim: Command): void {
  const host = sim.command('host').description('compute hosts');
  listSub(host, 'list', 'hosts with their state, capacity and use')
    .option('--zone <zone>', 'only this zone')
    .action(async (opts: Common & { zone?: string }) => {
      const hosts = await listHosts(ApiClient.from(opts), opts.zone);
      const rows = hosts.map((h) => ({
        host: h.name,
        zone: h.zone,
        state: h.state,
        servers: h.servers,
        vcpus: pct(h.used.vcpus, h.capacity.vcpus),
        ramMb: pct(h.used.ramMb, h.capacity.ramMb),
        diskGb: pct(h.used.diskGb, h.capacity.diskGb),
      }));
      table(opts, rows, ['host', 'zone', 'state', 'servers', 'vcpus', 'ramMb', 'diskGb'], hosts, 'no hosts');
    });
  for (const [state, description] of [
    ['down', 'a host goes down: its servers go to ERROR, nothing new is placed on it'],
    ['up', 'a host comes back up, and the servers it took down with it'],
  ] as const) {
    sub(host, `${state} <host>`, description).action(async (name: string, opts: Common) => {
      const h = await setHost(ApiClient.from(opts), name, state);
      emit(opts.json, h, () => say(`host ${name} ${state} (${h.serversAffected} server(s) affected)`));
    });
  }
}

function registerServers(sim: Command): void {
  const server = sim.command('server').description('servers (VNFC compute resources)');
  listSub(server, 'list', 'servers')
    .option('--instance <id>', "only this VNF instance's")
    .option('--host <host>', 'only on this host')
    .option('--zone <zone>', 'only in this zone')
    .action(async (opts: Common & { instance?: string; host?: string; zone?: string }) => {
      const servers = await listServers(ApiClient.from(opts), {
        instanceId: opts.instance,
        host: opts.host,
        zone: opts.zone,
      });
      const rows = servers.map((s) => ({
        id: s.id,
        name: s.name,
        status: s.status,
        host: s.host,
        zone: s.zone,
        flavor: s.flavor,
        instance: s.instanceId,
        fault: s.fault,
      }));
      table(
        opts,
        rows,
        ['id', 'name', 'status', 'host', 'zone', 'flavor', 'instance', 'fault'],
        servers,
        'no servers',
      );
    });
  sub(server, 'show <id>', 'one server').action(async (id: string, opts: Common) => {
    const s = await getServer(ApiClient.from(opts), id);
    emit(opts.json, s, () => printServer(s));
  });
  sub(server, 'crash <id>', 'a server crashes: ERROR until it is healed')
    .option('--reason <text>', 'why (shown in its health)')
    .action(async (id: string, opts: Common & { reason?: string }) => {
      const s = await crashServer(ApiClient.from(opts), id, opts.reason);
      emit(opts.json, s, () => say(`server ${id} ${s.status}: ${s.fault ?? ''}`));
    });
}

function registerFaults(sim: Command): void {
  const fault = sim.command('fault').description('injected faults: the next calls of a kind fail or hang');
  withIdOnly(sub(fault, 'add', 'the next --count calls of --kind fail with a message, or hang'))
    .requiredOption('--kind <kind>', `a call kind (${SIM_CALL_KINDS.join(', ')}) or * for any`)
    .option('--fail [message]', 'fail, with this VIM message')
    .option('--hang', 'hang until the operation is cancelled or --timeout passes')
    .option('--timeout <ms>', 'how long a hang lasts (default sim.hangTimeoutMs)')
    .option('--count <n>', 'how many calls', '1')
    .action(
      async (
        opts: Common & {
          kind: string;
          fail?: string | boolean;
          hang?: boolean;
          timeout?: string;
          count: string;
        },
      ) => {
        if (Boolean(opts.fail) === Boolean(opts.hang))
          throw new CliError('give either --fail [message] or --hang');
        if (opts.timeout !== undefined && !opts.hang) throw new CliError('--timeout applies to --hang only');
        if (opts.kind !== '*' && !SIM_CALL_KINDS.includes(opts.kind as never)) {
          throw new CliError(`--kind must be * or one of ${SIM_CALL_KINDS.join(', ')}, got '${opts.kind}'`);
        }
        const timeoutMs = positiveInt('--timeout', opts.timeout);
        const f = await addFault(ApiClient.from(opts), {
          kind: opts.kind,
          action: opts.hang ? 'hang' : 'fail',
          ...(typeof opts.fail === 'string' ? { message: opts.fail } : {}),
          count: positiveInt('--count', opts.count),
          ...(timeoutMs ? { timeoutMs } : {}),
        });
        emitRecords(opts, f, () =>
          say(
            `fault ${f.id}: the next ${f.remaining} ${f.kind} call(s) ${f.action === 'hang' ? 'hang' : 'fail'}`,
          ),
        );
      },
    );
  listSub(fault, 'list', 'faults still to happen').action(async (opts: Common) => {
    const faults = await listFaults(ApiClient.from(opts));
    const rows = faults.map((f) => ({
      id: f.id,
      kind: f.kind,
      action: f.action,
      remaining: f.remaining,
      message: f.message,
      timeoutMs: f.timeoutMs,
    }));
    table(opts, rows, ['id', 'kind', 'action', 'remaining', 'message', 'timeoutMs'], faults, 'no faults');
  });
  sub(fault, 'remove <id>', 'remove one fault').action(async (id: string, opts: Common) => {
    await removeFault(ApiClient.from(opts), id);
    emit(opts.json, { removed: id }, () => say(`removed fault ${id}`));
  });
  sub(fault, 'clear', 'remove every fault').action(async (opts: Common) => {
    const r = await clearFaults(ApiClient.from(opts));
    emit(opts.json, r, () => say(`removed ${r.removed} fault(s)`));
  });
}

export function register(sim: Command): void {
  registerZones(sim);
  registerHosts(sim);
  registerServers(sim);
  listSub(sim, 'health', 'per-server health')
    .option('--instance <id>', "only this VNF instance's servers")
    .action(async (opts: Common & { instance?: string }) => {
      const h = await health(ApiClient.from(opts), opts.instance);
      const rows = h.map((s) => ({
        server: s.serverId,
        vnfc: s.vnfcResourceInfoId,
        state: s.state,
        host: s.host,
        zone: s.zoneId,
        reason: s.reason,
      }));
      table(opts, rows, ['server', 'vnfc', 'state', 'host', 'zone', 'reason'], h, 'no servers');
    });
  const flavor = sim.command('flavor').description('flavors');
  listSub(flavor, 'list', 'flavors').action(async (opts: Common) => {
    const flavors = await listFlavors(ApiClient.from(opts));
    table(opts, flavors, ['name', 'vcpus', 'ramMb', 'diskGb'], flavors, 'no flavors');
  });
  const image = sim.command('image').description('images');
  listSub(image, 'list', 'images').action(async (opts: Common) => {
    const images = await listImages(ApiClient.from(opts));
    table(opts, images, ['id', 'name', 'size', 'instanceId'], images, 'no images');
  });
  registerFaults(sim);
}
