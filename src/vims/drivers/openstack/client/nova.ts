/**
 * Nova (compute v2.1, microversion pinned): availability zones with their hosts (the admin
 * `os-availability-zone/detail`), hypervisor capacity, flavors, servers with their host and zone,
 * server groups, and the server actions the LCM uses (reboot, stop, start, rebuild).
 */
import type { OpenStackSession } from './session.ts';

/**
 * 2.79 keeps hypervisors' vCPU and memory figures (gone from 2.88) and has everything else the
 * driver reads (host and zone of servers, server groups' policy, rebuild).
 */
const MICROVERSION = { 'openstack-api-version': 'compute 2.79', 'x-openstack-nova-api-version': '2.79' };

export interface ZoneDetail {
  zoneName: string;
  zoneState: { available: boolean };
  /** host → service → state; null when the zone has no hosts (or the caller is not admin). */
  hosts: Record<string, Record<string, { available: boolean; active: boolean }>> | null;
}

export interface Hypervisor {
  id: number | string;
  hypervisor_hostname: string;
  state?: string;
  status?: string;
  vcpus?: number;
  vcpus_used?: number;
  memory_mb?: number;
  memory_mb_used?: number;
  service?: { host?: string };
}

export interface Flavor {
  id: string;
  name: string;
  vcpus: number;
  ram: number;
  disk: number;
}

export interface Server {
  id: string;
  name: string;
  status: string;
  'OS-EXT-SRV-ATTR:host'?: string | null;
  'OS-EXT-AZ:availability_zone'?: string;
  image?: { id?: string } | '';
  flavor?: { original_name?: string; id?: string };
  fault?: { message?: string; code?: number };
  metadata?: Record<string, string>;
  tags?: string[];
  addresses?: Record<string, { addr: string; version: number; 'OS-EXT-IPS-MAC:mac_addr'?: string }[]>;
}

export interface ServerGroup {
  id: string;
  name: string;
  policy?: string;
  members: string[];
}

export type ServerAction =
  | { kind: 'reboot'; type: 'SOFT' | 'HARD' }
  | { kind: 'stop' }
  | { kind: 'start' }
  | { kind: 'rebuild'; imageRef: string };

const ACTION_BODIES: { [K in ServerAction['kind']]: (a: Extract<ServerAction, { kind: K }>) => unknown } = {
  reboot: (a) => ({ reboot: { type: a.type } }),
  stop: () => ({ 'os-stop': null }),
  start: () => ({ 'os-start': null }),
  rebuild: (a) => ({ rebuild: { imageRef: a.imageRef } }),
};

export class Nova {
  readonly #s: OpenStackSession;
  constructor(session: OpenStackSession) {
    this.#s = session;
  }

  /** Every zone with its hosts and their nova-compute state (needs admin under Nova's default policy). */
  async zonesDetail(signal?: AbortSignal): Promise<ZoneDetail[]> {
    const r = await this.#s.call<{ availabilityZoneInfo: ZoneDetail[] }>(
      'compute',
      'availability zone detail',
      {
        method: 'GET',
        path: '/os-availability-zone/detail',
        headers: MICROVERSION,
        signal,
      },
    );
    return r.data.availabilityZoneInfo;
  }

  /** The zones a project may boot in (any user; no hosts). */
  async zones(signal?: AbortSignal): Promise<ZoneDetail[]> {
    const r = await this.#s.call<{ availabilityZoneInfo: ZoneDetail[] }>(
      'compute',
      'availability zone list',
      {
        method: 'GET',
        path: '/os-availability-zone',
        headers: MICROVERSION,
        signal,
      },
    );
    return r.data.availabilityZoneInfo;
  }

  async hypervisors(signal?: AbortSignal): Promise<Hypervisor[]> {
    const r = await this.#s.call<{ hypervisors: Hypervisor[] }>('compute', 'hypervisor list', {
      method: 'GET',
      path: '/os-hypervisors/detail',
      headers: MICROVERSION,
      signal,
    });
    return r.data.hypervisors;
  }

  async flavors(signal?: AbortSignal): Promise<Flavor[]> {
    const r = await this.#s.call<{ flavors: Flavor[] }>('compute', 'flavor list', {
      method: 'GET',
      path: '/flavors/detail',
      query: { is_public: 'None' },
      headers: MICROVERSION,
      signal,
    });
    return r.data.flavors;
  }

  /** The server, or undefined when Nova does not know it. */
  async server(id: string, signal?: AbortSignal): Promise<Server | undefined> {
    const r = await this.#s.call<{ server: Server }>('compute', `server show ${id}`, {
      method: 'GET',
      path: `/servers/${encodeURIComponent(id)}`,
      headers: MICROVERSION,
      ok: [200, 404],
      signal,
    });
    return r.status === 404 ? undefined : r.data.server;
  }

  /** Servers of the project; `name` is a regular expression (Nova's filter). */
  async servers(filter: { name?: string; tags?: string[] } = {}, signal?: AbortSignal): Promise<Server[]> {
    const r = await this.#s.call<{ servers: Server[] }>('compute', 'server list', {
      method: 'GET',
      path: '/servers/detail',
      query: { name: filter.name, tags: filter.tags?.join(',') },
      headers: MICROVERSION,
      signal,
    });
    return r.data.servers;
  }

  /** Boots a server (tests fill zones with these; the driver's servers come from Heat). */
  async createServer(
    spec: {
      name: string;
      flavorRef: string;
      imageRef: string;
      availabilityZone?: string;
      networks?: 'none' | 'auto' | { uuid?: string; port?: string }[];
      metadata?: Record<string, string>;
    },
    signal?: AbortSignal,
  ): Promise<string> {
    const r = await this.#s.call<{ server: { id: string } }>('compute', `server create ${spec.name}`, {
      method: 'POST',
      path: '/servers',
      headers: MICROVERSION,
      json: {
        server: {
          name: spec.name,
          flavorRef: spec.flavorRef,
          imageRef: spec.imageRef,
          networks: spec.networks ?? 'none',
          ...(spec.availabilityZone ? { availability_zone: spec.availabilityZone } : {}),
          ...(spec.metadata ? { metadata: spec.metadata } : {}),
        },
      },
      signal,
    });
    return r.data.server.id;
  }

  async deleteServer(id: string, signal?: AbortSignal): Promise<void> {
    await this.#s.call('compute', `server delete ${id}`, {
      method: 'DELETE',
      path: `/servers/${encodeURIComponent(id)}`,
      headers: MICROVERSION,
      ok: [204, 404],
      signal,
    });
  }

  async action(id: string, action: ServerAction, signal?: AbortSignal): Promise<void> {
    const toBody = ACTION_BODIES[action.kind] as (a: ServerAction) => unknown;
    await this.#s.call('compute', `server ${action.kind} ${id}`, {
      method: 'POST',
      path: `/servers/${encodeURIComponent(id)}/action`,
      headers: MICROVERSION,
      json: toBody(action),
      signal,
    });
  }

  async serverGroups(signal?: AbortSignal): Promise<ServerGroup[]> {
    const r = await this.#s.call<{ server_groups: ServerGroup[] }>('compute', 'server group list', {
      method: 'GET',
      path: '/os-server-groups',
      headers: MICROVERSION,
      signal,
    });
    return r.data.server_groups;
  }

  async createServerGroup(name: string, policy: string, signal?: AbortSignal): Promise<ServerGroup> {
    const r = await this.#s.call<{ server_group: ServerGroup }>('compute', `server group create ${name}`, {
      method: 'POST',
      path: '/os-server-groups',
      headers: MICROVERSION,
      json: { server_group: { name, policy } },
      signal,
    });
    return r.data.server_group;
  }

  async deleteServerGroup(id: string, signal?: AbortSignal): Promise<void> {
    await this.#s.call('compute', `server group delete ${id}`, {
      method: 'DELETE',
      path: `/os-server-groups/${encodeURIComponent(id)}`,
      headers: MICROVERSION,
      ok: [204, 404],
      signal,
    });
  }
}
