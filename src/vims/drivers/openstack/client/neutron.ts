/**
 * Neutron (network v2.0): networks, subnets and ports — what external connection points and
 * the driver's view of a stack's ports need.
 */
import type { OpenStackSession } from './session.ts';

export interface Network {
  id: string;
  name: string;
  status?: string;
  shared?: boolean;
  subnets?: string[];
  tags?: string[];
}

export interface Subnet {
  id: string;
  name: string;
  network_id: string;
  cidr: string;
  ip_version: number;
}

export interface Port {
  id: string;
  name: string;
  network_id: string;
  mac_address: string;
  fixed_ips: { subnet_id: string; ip_address: string }[];
  device_id?: string;
  device_owner?: string;
  status?: string;
  tags?: string[];
}

type Query = Record<string, string | readonly string[] | undefined>;

export class Neutron {
  readonly #s: OpenStackSession;
  constructor(session: OpenStackSession) {
    this.#s = session;
  }

  async networks(filter: Query = {}, signal?: AbortSignal): Promise<Network[]> {
    return (await this.#list<{ networks: Network[] }>('network list', '/v2.0/networks', filter, signal))
      .networks;
  }

  async network(id: string, signal?: AbortSignal): Promise<Network | undefined> {
    return (
      await this.#show<{ network: Network }>(
        `network show ${id}`,
        `/v2.0/networks/${encodeURIComponent(id)}`,
        signal,
      )
    )?.network;
  }

  async createNetwork(spec: { name: string; tags?: string[] }, signal?: AbortSignal): Promise<Network> {
    const r = await this.#s.call<{ network: Network }>('network', `network create ${spec.name}`, {
      method: 'POST',
      path: '/v2.0/networks',
      json: { network: { name: spec.name } },
      signal,
    });
    return r.data.network;
  }

  async deleteNetwork(id: string, signal?: AbortSignal): Promise<void> {
    await this.#delete(`network delete ${id}`, `/v2.0/networks/${encodeURIComponent(id)}`, signal);
  }

  async subnets(filter: Query = {}, signal?: AbortSignal): Promise<Subnet[]> {
    return (await this.#list<{ subnets: Subnet[] }>('subnet list', '/v2.0/subnets', filter, signal)).subnets;
  }

  async createSubnet(
    spec: { name: string; networkId: string; cidr: string; ipVersion?: 4 | 6 },
    signal?: AbortSignal,
  ): Promise<Subnet> {
    const r = await this.#s.call<{ subnet: Subnet }>('network', `subnet create ${spec.name}`, {
      method: 'POST',
      path: '/v2.0/subnets',
      json: {
        subnet: {
          name: spec.name,
          network_id: spec.networkId,
          cidr: spec.cidr,
          ip_version: spec.ipVersion ?? 4,
          enable_dhcp: false,
        },
      },
      signal,
    });
    return r.data.subnet;
  }

  async deleteSubnet(id: string, signal?: AbortSignal): Promise<void> {
    await this.#delete(`subnet delete ${id}`, `/v2.0/subnets/${encodeURIComponent(id)}`, signal);
  }

  async ports(filter: Query = {}, signal?: AbortSignal): Promise<Port[]> {
    return (await this.#list<{ ports: Port[] }>('port list', '/v2.0/ports', filter, signal)).ports;
  }

  async port(id: string, signal?: AbortSignal): Promise<Port | undefined> {
    return (
      await this.#show<{ port: Port }>(`port show ${id}`, `/v2.0/ports/${encodeURIComponent(id)}`, signal)
    )?.port;
  }

  async createPort(spec: { name: string; networkId: string }, signal?: AbortSignal): Promise<Port> {
    const r = await this.#s.call<{ port: Port }>('network', `port create ${spec.name}`, {
      method: 'POST',
      path: '/v2.0/ports',
      json: { port: { name: spec.name, network_id: spec.networkId } },
      signal,
    });
    return r.data.port;
  }

  async deletePort(id: string, signal?: AbortSignal): Promise<void> {
    await this.#delete(`port delete ${id}`, `/v2.0/ports/${encodeURIComponent(id)}`, signal);
  }

  async #list<T>(name: string, path: string, query: Query, signal?: AbortSignal): Promise<T> {
    return (await this.#s.call<T>('network', name, { method: 'GET', path, query, signal })).data;
  }

  async #show<T>(name: string, path: string, signal?: AbortSignal): Promise<T | undefined> {
    const r = await this.#s.call<T>('network', name, { method: 'GET', path, ok: [200, 404], signal });
    return r.status === 404 ? undefined : r.data;
  }

  async #delete(name: string, path: string, signal?: AbortSignal): Promise<void> {
    await this.#s.call('network', name, { method: 'DELETE', path, ok: [204, 404], signal });
  }
}
