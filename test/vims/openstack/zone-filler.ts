/**
 * Makes a zone of mini-openstack full for a test: boots servers into it until Nova finds no host
 * for even the smallest, and deletes them afterwards.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { OpenStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import { findEndpoint } from '../../../src/vims/drivers/openstack/client/keystone.ts';

/**
 * Between looks at a server: each look at a Nova server costs Nova two Neutron calls (its ports
 * and security groups), the cloud's dearest work; a server settles in seconds.
 */
const LOOK_MS = 1000;

/** Largest first; the last is the smallest a test's VNFC uses. */
const SIZES = ['m1.xlarge', 'm1.large', 'm1.medium', 'm1.small', 'm1.tiny'];

export class ZoneFiller {
  readonly #client: OpenStackClient;
  readonly #image: string;
  readonly #prefix: string;
  readonly #servers = new Map<string, string[]>();

  constructor(client: OpenStackClient, imageId: string, prefix: string) {
    this.#client = client;
    this.#image = imageId;
    this.#prefix = prefix;
  }

  /**
   * Fills `zone`: servers of each flavour from the largest down, each size until Nova places no
   * more, so that not even the smallest fits (other tests' servers may share the hosts).
   */
  async fill(zone: string): Promise<void> {
    const mine = this.#servers.get(zone) ?? [];
    this.#servers.set(zone, mine);
    const flavors = await this.#client.nova.flavors();
    for (const name of SIZES) {
      const flavor = flavors.find((f) => f.name === name);
      if (!flavor) throw new Error(`mini-openstack has no ${name} flavour`);
      for (let i = 0; i < 40; i++) {
        const id = await this.#client.nova.createServer({
          name: `${this.#prefix}-${zone}-${name}-${i}`,
          flavorRef: flavor.id,
          imageRef: this.#image,
          availabilityZone: zone,
        });
        mine.push(id);
        if ((await this.#settled(id)) === 'ERROR') break;
      }
    }
  }

  async empty(zone: string): Promise<void> {
    const mine = this.#servers.get(zone) ?? [];
    for (const id of mine) await this.#client.nova.deleteServer(id);
    for (const id of mine) {
      while (await this.#client.nova.server(id)) await sleep(LOOK_MS);
    }
    // Nova answers 404 for a deleted server before its compute frees the server's allocations
    // in Placement; until then the scheduler still sees the zone full.
    for (const id of mine) {
      while (await this.#allocated(id)) await sleep(LOOK_MS / 2);
    }
    this.#servers.delete(zone);
  }

  async emptyAll(): Promise<void> {
    for (const zone of [...this.#servers.keys()]) await this.empty(zone);
  }

  async #allocated(serverId: string): Promise<boolean> {
    const session = this.#client.session;
    const token = await session.token();
    const found = findEndpoint(
      token.catalog,
      'placement',
      session.credentials.interface,
      session.credentials.region,
    );
    if ('missing' in found) throw new Error(`mini-openstack has no Placement endpoint: ${found.missing}`);
    const res = await fetch(`${found.url.replace(/\/+$/, '')}/allocations/${serverId}`, {
      headers: { 'x-auth-token': token.value, accept: 'application/json' },
    });
    if (!res.ok) throw new Error(`Placement allocations of ${serverId}: HTTP ${res.status}`);
    const body = (await res.json()) as { allocations: Record<string, unknown> };
    return Object.keys(body.allocations).length > 0;
  }

  async #settled(id: string): Promise<string> {
    for (let i = 0; i < 120; i++) {
      const s = await this.#client.nova.server(id);
      if (s && (s.status === 'ACTIVE' || s.status === 'ERROR')) return s.status;
      await sleep(LOOK_MS);
    }
    throw new Error(`server ${id} never settled`);
  }
}
