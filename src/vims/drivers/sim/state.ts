/**
 * What the simulated VIM holds for one instance: its stack (with the instance-level parameters)
 * and the servers, volumes, networks and ports tagged with the instance id.
 */

import type { ScaleInfo } from '../../../sol/instance-model.ts';
import type {
  SimNetworksTable,
  SimPortsTable,
  SimServersTable,
  SimStacksTable,
  SimVolumesTable,
} from '../../../store/db/tables.ts';
import type { Executor } from '../../../store/db/transaction.ts';
import type { ExtVirtualLinkData } from '../../contract.ts';

/** Instance-level facts kept on the stack (what the VIM resources alone do not say). */
export interface StackParams {
  flavourId: string;
  vnfdId?: string;
  instantiationLevelId?: string;
  scaleStatus: ScaleInfo[];
  maxScaleLevels: ScaleInfo[];
  extVirtualLinks: ExtVirtualLinkData[];
  extManagedVirtualLinks: Record<string, unknown>[];
  localizationLanguage?: string;
}

export interface InstanceState {
  stack?: SimStacksTable;
  params?: StackParams;
  servers: SimServersTable[];
  volumes: SimVolumesTable[];
  networks: SimNetworksTable[];
  ports: SimPortsTable[];
}

/** Newest first: creation time, then id (a stable order for equal times). */
export const newestFirst = <T extends { created_at: string; id: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) =>
    a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
  );

export async function loadState(db: Executor, instanceId: string): Promise<InstanceState> {
  const [stack, servers, volumes, networks, ports] = await Promise.all([
    db.selectFrom('sim_stacks').selectAll().where('instance_id', '=', instanceId).executeTakeFirst(),
    db.selectFrom('sim_servers').selectAll().where('instance_id', '=', instanceId).execute(),
    db.selectFrom('sim_volumes').selectAll().where('instance_id', '=', instanceId).execute(),
    db.selectFrom('sim_networks').selectAll().where('instance_id', '=', instanceId).execute(),
    db.selectFrom('sim_ports').selectAll().where('instance_id', '=', instanceId).execute(),
  ]);
  return {
    stack,
    params: stack ? (JSON.parse(stack.params) as StackParams) : undefined,
    servers: newestFirst(servers),
    volumes: newestFirst(volumes),
    networks,
    ports: newestFirst(ports),
  };
}

/** The server that realises each VNFC now (the newest when a re-creation left two). */
export function currentServers(state: InstanceState): Map<string, SimServersTable> {
  const out = new Map<string, SimServersTable>();
  for (const s of state.servers) if (!out.has(s.vnfc_id)) out.set(s.vnfc_id, s);
  return out;
}

/** The volume of each storage id (the newest). */
export function currentVolumes(state: InstanceState): Map<string, SimVolumesTable> {
  const out = new Map<string, SimVolumesTable>();
  for (const v of state.volumes) if (!out.has(v.storage_id)) out.set(v.storage_id, v);
  return out;
}

/** The port of each (VNFC, VduCp) (the newest). Key: `<vnfcId>/<cpdId>`. */
export function currentPorts(state: InstanceState): Map<string, SimPortsTable> {
  const out = new Map<string, SimPortsTable>();
  for (const p of state.ports) {
    if (!p.vnfc_id || !p.cpd_id) continue;
    const key = `${p.vnfc_id}/${p.cpd_id}`;
    if (!out.has(key)) out.set(key, p);
  }
  return out;
}
