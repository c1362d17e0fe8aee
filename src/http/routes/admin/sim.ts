/**
 * The simulated VIM's admin API (admin only: the bosun:admin scope when authentication is on):
 *   GET    /bosun/v1/sim/zones                      zones, capacity and use
 *   POST   /bosun/v1/sim/zones/{zone}/exhaust       placing there fails: No valid host was found
 *   POST   /bosun/v1/sim/zones/{zone}/restore
 *   GET    /bosun/v1/sim/hosts[?zone=]              hosts, state, capacity and use
 *   POST   /bosun/v1/sim/hosts/{host}/down          its servers go to ERROR
 *   POST   /bosun/v1/sim/hosts/{host}/up            they come back
 *   GET    /bosun/v1/sim/servers[?instanceId=&host=&zone=]
 *   GET    /bosun/v1/sim/servers/{id}
 *   POST   /bosun/v1/sim/servers/{id}/crash         ERROR until healed
 *   GET    /bosun/v1/sim/health[?instanceId=]       per-server health
 *   GET    /bosun/v1/sim/metrics                    the same as Prometheus metrics, to scrape
 *   GET    /bosun/v1/sim/flavors, /bosun/v1/sim/images
 *   GET    /bosun/v1/sim/faults                     injected faults still pending
 *   POST   /bosun/v1/sim/faults                     the next N calls of a kind fail or hang
 *   DELETE /bosun/v1/sim/faults[/{id}]
 * The topology is seeded at start (see vims/drivers/sim/index.ts).
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../sol/problem.ts';
import { SIM_CALL_KINDS } from '../../../vims/drivers/sim/calls.ts';
import { addFault, clearFaults, listFaults, removeFault } from '../../../vims/drivers/sim/faults.ts';
import { serverHealth } from '../../../vims/drivers/sim/health.ts';
import {
  crashServer,
  SimNotFound,
  setHostState,
  setZoneExhausted,
} from '../../../vims/drivers/sim/incidents.ts';
import {
  getServer,
  listFlavors,
  listHosts,
  listImages,
  listServers,
  listZones,
} from '../../../vims/drivers/sim/inventory.ts';
import { simMetrics } from '../../../vims/drivers/sim/metrics.ts';
import { absoluteUrl } from '../../sol013/links.ts';

const BASE = '/bosun/v1/sim';
const sol013 = { access: 'admin' } as const;

const Name = Type.String({ minLength: 1, maxLength: 255 });
const ZoneParams = Type.Object({ zone: Name });
const HostParams = Type.Object({ host: Name });
const IdParams = Type.Object({ id: Name });
const HostQuery = Type.Object({ zone: Type.Optional(Name) }, { additionalProperties: false });
const ServerQuery = Type.Object(
  { instanceId: Type.Optional(Name), host: Type.Optional(Name), zone: Type.Optional(Name) },
  { additionalProperties: false },
);
const HealthQuery = Type.Object({ instanceId: Type.Optional(Name) }, { additionalProperties: false });
const CrashBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1024 })) },
  { additionalProperties: false },
);
export const NewFaultBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('*'), ...SIM_CALL_KINDS.map((k) => Type.Literal(k))]),
    action: Type.Union([Type.Literal('fail'), Type.Literal('hang')]),
    message: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000 })),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400000 })),
  },
  { additionalProperties: false },
);

const param = <T>(request: FastifyRequest) => request.params as T;

/** Runs an incident; an unknown zone, host or server is a 404. */
async function incident<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SimNotFound) throw new ApiError(404, error.message);
    throw error;
  }
}

export function registerSimAdmin(app: FastifyInstance): void {
  app.get(`${BASE}/zones`, { config: { sol013 } }, (request) => listZones(request.server.bosun.db));

  for (const [action, exhausted] of [
    ['exhaust', true],
    ['restore', false],
  ] as const) {
    app.post(
      `${BASE}/zones/:zone/${action}`,
      { schema: { params: ZoneParams }, config: { sol013 } },
      async (request) => {
        const { zone } = param<Static<typeof ZoneParams>>(request);
        const { db } = request.server.bosun;
        await incident(() => setZoneExhausted(db, zone, exhausted));
        return (await listZones(db)).find((z) => z.name === zone);
      },
    );
  }

  app.get(`${BASE}/hosts`, { schema: { querystring: HostQuery }, config: { sol013 } }, async (request) => {
    const { zone } = request.query as Static<typeof HostQuery>;
    const hosts = await listHosts(request.server.bosun.db);
    return zone ? hosts.filter((h) => h.zone === zone) : hosts;
  });

  for (const state of ['down', 'up'] as const) {
    app.post(
      `${BASE}/hosts/:host/${state}`,
      { schema: { params: HostParams }, config: { sol013 } },
      async (request) => {
        const { host } = param<Static<typeof HostParams>>(request);
        const { db } = request.server.bosun;
        const servers = await incident(() => setHostState(db, host, state));
        return { ...(await listHosts(db)).find((h) => h.name === host), serversAffected: servers };
      },
    );
  }

  app.get(`${BASE}/servers`, { schema: { querystring: ServerQuery }, config: { sol013 } }, (request) =>
    listServers(request.server.bosun.db, request.query as Static<typeof ServerQuery>),
  );

  const server = async (request: FastifyRequest) => {
    const { id } = param<Static<typeof IdParams>>(request);
    const found = await getServer(request.server.bosun.db, id);
    if (!found) throw new ApiError(404, `Server ${id} does not exist.`);
    return found;
  };
  app.get(`${BASE}/servers/:id`, { schema: { params: IdParams }, config: { sol013 } }, server);
  app.post(
    `${BASE}/servers/:id/crash`,
    { schema: { params: IdParams, body: CrashBody }, config: { sol013 } },
    async (request) => {
      const { id } = param<Static<typeof IdParams>>(request);
      const { reason } = (request.body ?? {}) as Static<typeof CrashBody>;
      await incident(() => crashServer(request.server.bosun.db, id, reason));
      return server(request);
    },
  );

  app.get(`${BASE}/health`, { schema: { querystring: HealthQuery }, config: { sol013 } }, (request) =>
    serverHealth(request.server.bosun.db.kysely, (request.query as Static<typeof HealthQuery>).instanceId),
  );

  app.get(
    `${BASE}/metrics`,
    { config: { sol013: { ...sol013, produces: ['*/*'] } } },
    async (request, reply) => {
      const { contentType, text } = await simMetrics(request.server.bosun.db.kysely);
      return reply.type(contentType).send(text);
    },
  );

  app.get(`${BASE}/flavors`, { config: { sol013 } }, (request) => listFlavors(request.server.bosun.db));
  app.get(`${BASE}/images`, { config: { sol013 } }, (request) => listImages(request.server.bosun.db));

  app.get(`${BASE}/faults`, { config: { sol013 } }, (request) => listFaults(request.server.bosun.db));
  app.post(
    `${BASE}/faults`,
    { schema: { body: NewFaultBody }, config: { sol013 } },
    async (request, reply) => {
      const body = request.body as Static<typeof NewFaultBody>;
      if (body.action === 'fail' && body.timeoutMs !== undefined) {
        throw new ApiError(400, 'timeoutMs applies to hang faults only.');
      }
      const fault = await addFault(request.server.bosun.db, body);
      return reply
        .code(201)
        .header('Location', absoluteUrl(request, `${BASE}/faults/${fault.id}`))
        .send(fault);
    },
  );
  app.delete(`${BASE}/faults`, { config: { sol013 } }, async (request) => ({
    removed: await clearFaults(request.server.bosun.db),
  }));
  app.delete(
    `${BASE}/faults/:id`,
    { schema: { params: IdParams }, config: { sol013 } },
    async (request, reply) => {
      const { id } = param<Static<typeof IdParams>>(request);
      if (!(await removeFault(request.server.bosun.db, id)))
        throw new ApiError(404, `Fault ${id} does not exist.`);
      return reply.code(204).send();
    },
  );
}
