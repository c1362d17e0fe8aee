/**
 * Makes the simulated VIM hold what a StackSpec describes, call by call (each a simulated VIM
 * call: delay, faults, signal, one transaction). It compares with what exists each time, so
 * running it again after a failure continues where it stopped and never duplicates anything:
 *
 * 1. the stack, and a network per internal VL;
 * 2. VNFCs the spec no longer has are removed (servers, owned ports, volumes; supplied ports
 *    are detached);
 * 3. per VNFC: volumes, then ports (a port on the wrong network is replaced; an external one on
 *    the right network is updated in place), then the server —
 *    created with its ports and volumes attached, re-created when the spec says so (the new one
 *    first, then the old one goes), rebuilt when the image differs, resized when the flavor does;
 * 4. a port per VnfExtCp node that an external VL of the request carries — it belongs to the
 *    VNF, not to a VNFC (SOL001's VnfExtCp exposes an internal VL) — and none for the others;
 * 5. networks the spec no longer has, then the stack's parameters.
 */
import { randomUUID } from 'node:crypto';
import type {
  SimNetworksTable,
  SimPortsTable,
  SimServersTable,
  SimVolumesTable,
} from '../../../store/db/tables.ts';
import type { Executor } from '../../../store/db/transaction.ts';
import { type ExtVirtualLinkData, InfraError, type ServerGroupPolicy } from '../../contract.ts';
import { allocateIps, externalCidr, newInternalCidr, newMac } from './addresses.ts';
import { type CallScope, removePort, vimCall, vimChange } from './calls.ts';
import type { PortIp } from './derive.ts';
import { serverName } from './ids.ts';
import type { Journal } from './journal.ts';
import { fitsOn, type GroupHosts, placeServer } from './placement.ts';
import type { StackSpec, StorageSpec, VnfcSpec } from './spec.ts';
import { newestFirst } from './state.ts';

interface CpConfigEntry {
  key: string;
  linkPortId?: string;
  fixed: string[];
}

type CpTarget =
  | { kind: 'none' }
  | { kind: 'keep' }
  | { kind: 'network'; networkId: string; cidr: string }
  | { kind: 'external'; extVl: ExtVirtualLinkData; cidr: string; configs: CpConfigEntry[] };

const now = () => new Date().toISOString();

/** A creation time after every row it supersedes, so "newest" is never a tie. */
function after(rows: { created_at: string }[]): string {
  const latest = Math.max(0, ...rows.map((r) => Date.parse(r.created_at)));
  return new Date(Math.max(Date.now(), latest + 1)).toISOString();
}

function cpConfigEntries(cpConfig: unknown): CpConfigEntry[] {
  const entries: [string, Record<string, unknown>][] = Array.isArray(cpConfig)
    ? cpConfig.map((c, i) => [
        String((c as { cpInstanceId?: string }).cpInstanceId ?? i),
        c as Record<string, unknown>,
      ])
    : Object.entries((cpConfig ?? {}) as Record<string, Record<string, unknown>>);
  return entries.map(([key, c]) => {
    const protocol = (c.cpProtocolData ?? []) as {
      ipOverEthernet?: { ipAddresses?: { fixedAddresses?: string[] }[] };
    }[];
    const fixed = protocol.flatMap((p) =>
      (p.ipOverEthernet?.ipAddresses ?? []).flatMap((a) => a.fixedAddresses ?? []),
    );
    return { key, ...(typeof c.linkPortId === 'string' ? { linkPortId: c.linkPortId } : {}), fixed };
  });
}

const extCpsOf = (e: ExtVirtualLinkData) => (e.extCps ?? []) as { cpdId: string; cpConfig?: unknown }[];

/** Where the external VLs of the request put CP `cpdId` (a VduCp or a VnfExtCp), if anywhere. */
function externalTarget(spec: StackSpec, cpdId: string): CpTarget {
  for (const extVl of spec.params.extVirtualLinks) {
    const extCp = extCpsOf(extVl).find((c) => c.cpdId === cpdId);
    if (extCp) {
      return {
        kind: 'external',
        extVl,
        cidr: externalCidr(extVl.resourceId),
        configs: cpConfigEntries(extCp.cpConfig),
      };
    }
  }
  return { kind: 'none' };
}

function targetOf(spec: StackSpec, networks: Map<string, SimNetworksTable>, cpdId: string): CpTarget {
  const cp = spec.flavour.vduCps.find((c) => c.id === cpdId);
  if (!cp) return { kind: 'keep' };
  if (cp.virtualLink) {
    const managed = spec.params.extManagedVirtualLinks.find((e) => e.vnfVirtualLinkDescId === cp.virtualLink);
    if (managed) {
      const networkId = String(managed.resourceId);
      return { kind: 'network', networkId, cidr: externalCidr(networkId) };
    }
    const net = networks.get(cp.virtualLink);
    return net ? { kind: 'network', networkId: net.id, cidr: net.cidr } : { kind: 'none' };
  }
  return externalTarget(spec, cpdId);
}

type ExternalTarget = Extract<CpTarget, { kind: 'external' }>;

/** Whether the NFVO supplies the CP's port (a cpConfig names one of the ext VL's extLinkPorts). */
const supplied = (target: ExternalTarget) => target.configs.some((c) => c.linkPortId);

/**
 * Whether `port` serves `target` as it is or after an in-place update. Neutron cannot move a port
 * to another network (Heat replaces a port whose network changes, and Tacker's extCpInfo id is the
 * port's), so a CP whose external VL is on another network gets a new port; on the same network
 * the port is kept, its external VL, cpConfig and fixed addresses updated (`retarget`). A port the
 * NFVO supplies is taken as the cpConfig names it.
 */
function portMatches(port: SimPortsTable, target: CpTarget): boolean {
  switch (target.kind) {
    case 'keep':
      return true;
    case 'none':
      return false;
    case 'network':
      return !port.ext_vl_id && port.network_id === target.networkId;
    case 'external':
      if (supplied(target))
        return port.ext_vl_id === target.extVl.id && port.network_id === target.extVl.resourceId;
      return Boolean(port.owned) && port.network_id === target.extVl.resourceId;
  }
}

const sameMembers = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

class Reconciler {
  readonly scope: CallScope;
  readonly spec: StackSpec;
  stackId = '';
  networks = new Map<string, SimNetworksTable>();

  constructor(scope: CallScope, spec: StackSpec) {
    this.scope = scope;
    this.spec = spec;
  }

  get #db() {
    return this.scope.db.kysely;
  }

  #rows<T extends 'sim_servers' | 'sim_volumes' | 'sim_ports'>(table: T, vnfcId?: string) {
    let q = this.#db
      .selectFrom(table as 'sim_servers')
      .selectAll()
      .where('instance_id', '=', this.scope.instanceId);
    if (vnfcId !== undefined) q = q.where('vnfc_id', '=', vnfcId);
    return q.execute() as unknown as Promise<
      T extends 'sim_servers'
        ? SimServersTable[]
        : T extends 'sim_volumes'
          ? SimVolumesTable[]
          : SimPortsTable[]
    >;
  }

  async run(): Promise<void> {
    await this.#stack();
    await this.#createNetworks();
    await this.#removeVnfcs();
    for (const vnfc of this.spec.vnfcs) await this.#vnfc(vnfc);
    await this.#vnfExtCps();
    await this.#removeNetworks();
    await this.#params();
  }

  async #stack(): Promise<void> {
    const { scope } = this;
    const stack = await this.#db
      .selectFrom('sim_stacks')
      .selectAll()
      .where('instance_id', '=', scope.instanceId)
      .executeTakeFirst();
    if (stack) {
      this.stackId = stack.id;
      return;
    }
    const id = randomUUID();
    await vimChange(scope, 'stack.create', (j) =>
      j.insert('sim_stacks', {
        id,
        instance_id: scope.instanceId,
        op_occ_id: scope.opOccId,
        created_at: now(),
        updated_at: now(),
        name: `vnf-${scope.instanceId}`,
        status: 'CREATE_COMPLETE',
        params: JSON.stringify(this.spec.params),
      }),
    );
    this.stackId = id;
  }

  async #loadNetworks(): Promise<SimNetworksTable[]> {
    const rows = await this.#db
      .selectFrom('sim_networks')
      .selectAll()
      .where('instance_id', '=', this.scope.instanceId)
      .execute();
    this.networks = new Map(
      newestFirst(rows)
        .reverse()
        .map((n) => [n.desc_id, n]),
    );
    return rows;
  }

  async #createNetworks(): Promise<void> {
    const { scope } = this;
    await this.#loadNetworks();
    for (const descId of this.spec.networks) {
      if (this.networks.has(descId)) continue;
      const row: SimNetworksTable = {
        id: randomUUID(),
        instance_id: scope.instanceId,
        op_occ_id: scope.opOccId,
        created_at: now(),
        stack_id: this.stackId,
        desc_id: descId,
        name: `${descId}-${scope.instanceId.slice(0, 8)}`,
        cidr: newInternalCidr(),
      };
      await vimChange(scope, 'network.create', (j) => j.insert('sim_networks', row));
      this.networks.set(descId, row);
    }
  }

  async #deletePort(port: SimPortsTable): Promise<void> {
    await removePort(this.scope, port);
  }

  async #removeVnfcs(): Promise<void> {
    const wanted = new Set(this.spec.vnfcs.map((v) => v.id));
    for (const s of await this.#rows('sim_servers')) {
      if (!wanted.has(s.vnfc_id))
        await vimChange(this.scope, 'server.delete', (j) => j.remove('sim_servers', s.id));
    }
    for (const p of await this.#rows('sim_ports')) {
      if (p.vnfc_id && !wanted.has(p.vnfc_id)) await this.#deletePort(p);
    }
    for (const v of await this.#rows('sim_volumes')) {
      if (!wanted.has(v.vnfc_id))
        await vimChange(this.scope, 'volume.delete', (j) => j.remove('sim_volumes', v.id));
    }
  }

  async #volume(vnfc: VnfcSpec, s: StorageSpec, existing: SimVolumesTable[]): Promise<SimVolumesTable> {
    const { scope } = this;
    const mine = newestFirst(existing.filter((v) => v.storage_id === s.id));
    const fresh = mine.find((v) => v.op_occ_id === scope.opOccId);
    const keep = fresh ?? mine[0];
    if (keep && (fresh || (!s.replace && keep.image_id === s.imageId))) return keep;
    const row: SimVolumesTable = {
      id: randomUUID(),
      instance_id: scope.instanceId,
      op_occ_id: scope.opOccId,
      created_at: after(mine),
      stack_id: this.stackId,
      vnfc_id: vnfc.id,
      storage_id: s.id,
      desc_id: s.descId,
      size_gb: s.sizeGb,
      image_id: s.imageId,
      server_id: null,
      status: 'available',
    };
    await vimChange(scope, 'volume.create', (j) => j.insert('sim_volumes', row));
    return row;
  }

  /** A new port of CP `cpdId`: a VNFC's (`vnfcId`), or the VNF's own (null) for a VnfExtCp. */
  async #newPort(
    j: Journal,
    vnfcId: string | null,
    cpdId: string,
    target: CpTarget,
    existing: SimPortsTable[],
  ) {
    const { scope } = this;
    const base = {
      instance_id: scope.instanceId,
      op_occ_id: scope.opOccId,
      created_at: after(existing),
      stack_id: this.stackId,
      vnfc_id: vnfcId,
      cpd_id: cpdId,
      server_id: null,
    };
    if (target.kind === 'network') {
      const row: SimPortsTable = {
        ...base,
        id: randomUUID(),
        network_id: target.networkId,
        ext_vl_id: null,
        cp_config_id: null,
        owned: true,
        mac: newMac(),
        ips: JSON.stringify(await allocateIps(j.trx, target.networkId, target.cidr, [])),
      };
      await j.insert('sim_ports', row);
      return row;
    }
    if (target.kind !== 'external') throw new Error(`no port for target ${target.kind}`);
    const { extVl } = target;
    const supplied = (extVl.extLinkPorts ?? []) as { id: string; resourceHandle?: { resourceId?: string } }[];
    for (const config of target.configs) {
      if (!config.linkPortId) continue;
      const resourceId = supplied.find((p) => p.id === config.linkPortId)?.resourceHandle?.resourceId;
      if (!resourceId) {
        throw new InfraError(
          'INVALID_REQUEST',
          `cpConfig ${config.key} names link port ${config.linkPortId}, which extLinkPorts of ${extVl.id} lacks.`,
        );
      }
      const found = await j.trx
        .selectFrom('sim_ports')
        .selectAll()
        .where('id', '=', resourceId)
        .executeTakeFirst();
      if (found?.vnfc_id && found.vnfc_id !== vnfcId) continue;
      const patch = {
        ...base,
        network_id: extVl.resourceId,
        ext_vl_id: extVl.id,
        cp_config_id: config.key,
      };
      if (found) {
        await j.update('sim_ports', resourceId, patch);
        return { ...found, ...patch };
      }
      const row: SimPortsTable = {
        ...patch,
        id: resourceId,
        owned: false,
        mac: newMac(),
        ips: JSON.stringify(await allocateIps(j.trx, extVl.resourceId, target.cidr, [])),
      };
      await j.insert('sim_ports', row);
      return row;
    }
    const config = await this.#freeConfig(j.trx, cpdId, target);
    const row: SimPortsTable = {
      ...base,
      id: randomUUID(),
      network_id: extVl.resourceId,
      ext_vl_id: extVl.id,
      cp_config_id: config?.key ?? null,
      owned: true,
      mac: newMac(),
      ips: JSON.stringify(await allocateIps(j.trx, extVl.resourceId, target.cidr, config?.fixed ?? [])),
    };
    await j.insert('sim_ports', row);
    return row;
  }

  /**
   * The cpConfig entry a new port of `cpdId` takes: each entry is one CP instance (SOL003 keys
   * cpConfig by cpInstanceId), so the first one no other port of the CP holds — the VNFCs of a
   * VDU get one entry each, in order — or the first when every entry is taken.
   */
  async #freeConfig(db: Executor, cpdId: string, target: ExternalTarget): Promise<CpConfigEntry | undefined> {
    const own = target.configs.filter((c) => !c.linkPortId);
    if (own.length < 2) return own[0];
    const held = await db
      .selectFrom('sim_ports')
      .select('cp_config_id')
      .where('instance_id', '=', this.scope.instanceId)
      .where('cpd_id', '=', cpdId)
      .execute();
    const taken = new Set(held.map((p) => p.cp_config_id));
    return own.find((c) => !taken.has(c.key)) ?? own[0];
  }

  /**
   * A kept external port takes the request's external VL, cpConfig and fixed addresses (a Neutron
   * port update: same port, MAC and, unless new fixed addresses are asked for, addresses). It keeps
   * the cpConfig entry it holds when the request still has it.
   */
  async #retarget(port: SimPortsTable, target: ExternalTarget): Promise<SimPortsTable> {
    if (supplied(target)) return port;
    const config =
      target.configs.find((c) => !c.linkPortId && c.key === port.cp_config_id) ??
      (await this.#freeConfig(this.#db, port.cpd_id ?? '', target));
    const fixed = config?.fixed ?? [];
    const held = (JSON.parse(port.ips) as PortIp[]).filter((a) => !a.dynamic).map((a) => a.ip);
    const readdress = fixed.length > 0 && !sameMembers(fixed, held);
    const patch = { ext_vl_id: target.extVl.id, cp_config_id: config?.key ?? null };
    if (!readdress && patch.ext_vl_id === port.ext_vl_id && patch.cp_config_id === port.cp_config_id)
      return port;
    return vimCall(this.scope, 'port.update', async (j) => {
      const ips = readdress
        ? { ips: JSON.stringify(await allocateIps(j.trx, port.network_id, target.cidr, fixed, port.id)) }
        : {};
      await j.update('sim_ports', port.id, { ...patch, ...ips });
      return { ...port, ...patch, ...ips };
    });
  }

  async #vnfc(vnfc: VnfcSpec): Promise<void> {
    const { scope } = this;
    const volumes = await this.#rows('sim_volumes', vnfc.id);
    const chosenVolumes: SimVolumesTable[] = [];
    for (const s of vnfc.storages) chosenVolumes.push(await this.#volume(vnfc, s, volumes));

    const ports = await this.#rows('sim_ports', vnfc.id);
    const chosenPorts: SimPortsTable[] = [];
    for (const cpdId of vnfc.cps) {
      const target = targetOf(this.spec, this.networks, cpdId);
      const mine = newestFirst(ports.filter((p) => p.cpd_id === cpdId));
      const match = mine.find((p) => portMatches(p, target));
      if (match) chosenPorts.push(target.kind === 'external' ? await this.#retarget(match, target) : match);
      else if (target.kind === 'network' || target.kind === 'external') {
        chosenPorts.push(
          await vimCall(scope, 'port.create', (j) => this.#newPort(j, vnfc.id, cpdId, target, mine)),
        );
      }
    }

    const servers = newestFirst(await this.#rows('sim_servers', vnfc.id));
    // A server to re-create is kept only when this op occ already made its replacement.
    let keep = vnfc.replaceServer ? servers.find((s) => s.op_occ_id === scope.opOccId) : servers[0];
    if (!keep) keep = await this.#createServer(vnfc, servers, chosenPorts, chosenVolumes);
    else keep = await this.#updateServer(vnfc, keep);
    const server = keep;

    for (const p of chosenPorts) {
      if (p.server_id !== server.id)
        await vimChange(scope, 'port.update', (j) => j.update('sim_ports', p.id, { server_id: server.id }));
    }
    for (const v of chosenVolumes) {
      if (v.server_id !== server.id) {
        await vimChange(scope, 'volume.update', (j) =>
          j.update('sim_volumes', v.id, { server_id: server.id, status: 'in-use' }),
        );
      }
    }
    for (const s of servers) {
      if (s.id !== server.id) await vimChange(scope, 'server.delete', (j) => j.remove('sim_servers', s.id));
    }
    const keptPorts = new Set(chosenPorts.map((p) => p.id));
    for (const p of ports) if (!keptPorts.has(p.id)) await this.#deletePort(p);
    const keptVolumes = new Set(chosenVolumes.map((v) => v.id));
    for (const v of volumes) {
      if (!keptVolumes.has(v.id))
        await vimChange(scope, 'volume.delete', (j) => j.remove('sim_volumes', v.id));
    }
  }

  async #createServer(
    vnfc: VnfcSpec,
    previous: SimServersTable[],
    ports: SimPortsTable[],
    volumes: SimVolumesTable[],
  ): Promise<SimServersTable> {
    const zone = vnfc.zone ?? previous[0]?.zone;
    try {
      return await this.#placeNewServer(vnfc, zone, previous, ports, volumes);
    } catch (err) {
      // Whatever failed the creation (no host, an injected failure), the engine learns which
      // VNFC failed where, so it can try another zone.
      if (!(err instanceof InfraError) || err.code === 'CANCELLED') throw err;
      throw new InfraError(err.code, err.message, {
        ...err.detail,
        vnfcId: vnfc.id,
        vduId: vnfc.vduId,
        ...(zone ? { zone } : {}),
        reason: err.detail?.reason ?? err.message,
      });
    }
  }

  async #placeNewServer(
    vnfc: VnfcSpec,
    zone: string | undefined,
    previous: SimServersTable[],
    ports: SimPortsTable[],
    volumes: SimVolumesTable[],
  ): Promise<SimServersTable> {
    const { scope } = this;
    return vimCall(scope, 'server.create', async (j) => {
      const placement = await placeServer(
        j,
        { vcpus: vnfc.flavor.vcpus, ramMb: vnfc.flavor.ram_mb, diskGb: vnfc.flavor.disk_gb },
        zone,
        { vnfcId: vnfc.id, vduId: vnfc.vduId },
        undefined,
        await this.#groupHosts(j, vnfc.id),
      );
      let seq = previous[0]?.seq;
      if (seq === undefined) {
        const top = await j.trx
          .selectFrom('sim_servers')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .where('instance_id', '=', scope.instanceId)
          .executeTakeFirst();
        seq = Number(top?.seq ?? 0) + 1;
      }
      const row: SimServersTable = {
        id: randomUUID(),
        instance_id: scope.instanceId,
        op_occ_id: scope.opOccId,
        created_at: after(previous),
        stack_id: this.stackId,
        vnfc_id: vnfc.id,
        vdu_id: vnfc.vduId,
        seq,
        name: serverName(vnfc.vduId, vnfc.id),
        zone: placement.zone,
        host: placement.host,
        flavor_id: vnfc.flavor.id,
        image_id: vnfc.imageId,
        vcpus: vnfc.flavor.vcpus,
        ram_mb: vnfc.flavor.ram_mb,
        disk_gb: vnfc.flavor.disk_gb,
        cps: JSON.stringify(vnfc.cps),
        power: previous[0]?.power ?? 'on',
        status: previous[0]?.power === 'off' ? 'SHUTOFF' : 'ACTIVE',
        fault: null,
      };
      await j.insert('sim_servers', row);
      for (const p of ports) await j.update('sim_ports', p.id, { server_id: row.id });
      for (const v of volumes) await j.update('sim_volumes', v.id, { server_id: row.id, status: 'in-use' });
      return row;
    });
  }

  /** The hosts of the peers of VNFC `vnfcId` in its server groups, by the groups' policies. */
  async #groupHosts(j: Journal, vnfcId: string): Promise<GroupHosts> {
    const groups = this.spec.serverGroups.filter((g) => g.members.includes(vnfcId));
    const peers = [...new Set(groups.flatMap((g) => g.members))].filter((id) => id !== vnfcId);
    const rows = peers.length
      ? await j.trx
          .selectFrom('sim_servers')
          .select(['vnfc_id', 'host'])
          .where('instance_id', '=', this.scope.instanceId)
          .where('vnfc_id', 'in', peers)
          .execute()
      : [];
    const hostsOf = (policy: ServerGroupPolicy) =>
      new Set(
        rows
          .filter((r) => groups.some((g) => g.policy === policy && g.members.includes(r.vnfc_id)))
          .map((r) => r.host),
      );
    return {
      avoid: hostsOf('anti-affinity'),
      join: hostsOf('affinity'),
      softAvoid: hostsOf('soft-anti-affinity'),
      softJoin: hostsOf('soft-affinity'),
    };
  }

  async #hostUp(server: SimServersTable, j: Journal): Promise<void> {
    const host = await j.trx
      .selectFrom('sim_hosts')
      .select('state')
      .where('name', '=', server.host)
      .executeTakeFirst();
    if (host?.state === 'down') {
      throw new InfraError('VIM_OPERATION_FAILED', `Compute host ${server.host} is down.`, {
        server: server.id,
      });
    }
  }

  async #updateServer(vnfc: VnfcSpec, server: SimServersTable): Promise<SimServersTable> {
    const { scope } = this;
    let current = server;
    if (current.image_id !== vnfc.imageId) {
      const patch = {
        image_id: vnfc.imageId,
        status: current.power === 'off' ? 'SHUTOFF' : 'ACTIVE',
        fault: null,
      };
      await vimCall(scope, 'server.rebuild', async (j) => {
        await this.#hostUp(current, j);
        await j.update('sim_servers', current.id, patch);
      });
      current = { ...current, ...patch };
    }
    if (current.flavor_id !== vnfc.flavor.id) {
      const f = vnfc.flavor;
      const need = { vcpus: f.vcpus, ramMb: f.ram_mb, diskGb: f.disk_gb };
      current = await vimCall(scope, 'server.resize', async (j) => {
        await this.#hostUp(current, j);
        const fits = await fitsOn(j, current.host, need, current.id);
        const placement = fits
          ? { zone: current.zone, host: current.host }
          : await placeServer(
              j,
              need,
              current.zone,
              { vnfcId: vnfc.id, vduId: vnfc.vduId },
              current.id,
              await this.#groupHosts(j, vnfc.id),
            );
        const patch = {
          flavor_id: f.id,
          vcpus: f.vcpus,
          ram_mb: f.ram_mb,
          disk_gb: f.disk_gb,
          host: placement.host,
        };
        await j.update('sim_servers', current.id, patch);
        return { ...current, ...patch };
      });
    }
    const cps = JSON.stringify(vnfc.cps);
    if (current.cps !== cps) {
      await vimChange(scope, 'server.update', (j) => j.update('sim_servers', current.id, { cps }));
      current = { ...current, cps };
    }
    return current;
  }

  async #vnfExtCps(): Promise<void> {
    const ports = (await this.#rows('sim_ports')).filter((p) => p.vnfc_id === null && p.cpd_id !== null);
    const kept = new Set<string>();
    for (const cp of this.spec.flavour.extCps) {
      const target = externalTarget(this.spec, cp.id);
      if (target.kind !== 'external') continue;
      const mine = newestFirst(ports.filter((p) => p.cpd_id === cp.id));
      const match = mine.find((p) => portMatches(p, target));
      const port = match
        ? await this.#retarget(match, target)
        : await vimCall(this.scope, 'port.create', (j) => this.#newPort(j, null, cp.id, target, mine));
      kept.add(port.id);
    }
    for (const p of ports) if (!kept.has(p.id)) await this.#deletePort(p);
  }

  async #removeNetworks(): Promise<void> {
    const wanted = new Set(this.spec.networks);
    for (const n of await this.#loadNetworks()) {
      if (wanted.has(n.desc_id) && this.networks.get(n.desc_id)?.id === n.id) continue;
      const ports = await this.#db
        .selectFrom('sim_ports')
        .selectAll()
        .where('network_id', '=', n.id)
        .execute();
      for (const p of ports) await this.#deletePort(p);
      await vimChange(this.scope, 'network.delete', (j) => j.remove('sim_networks', n.id));
    }
  }

  async #params(): Promise<void> {
    const stack = await this.#db
      .selectFrom('sim_stacks')
      .selectAll()
      .where('id', '=', this.stackId)
      .executeTakeFirstOrThrow();
    const params = JSON.stringify(this.spec.params);
    if (stack.params === params) return;
    await vimChange(this.scope, 'stack.update', (j) =>
      j.update('sim_stacks', stack.id, { params, status: 'UPDATE_COMPLETE', updated_at: now() }),
    );
  }
}

export function reconcile(scope: CallScope, spec: StackSpec): Promise<void> {
  return new Reconciler(scope, spec).run();
}
