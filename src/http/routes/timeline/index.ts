/**
 * The live timeline of each LCM op occ, with the same authentication and project isolation as
 * the LCM API (the vnflcm scopes of any major; another project's op occ is 404):
 *   GET /bosun/v1/vnf_lcm_op_occs/{id}/timeline   its events so far (JSON; ?after=&limit=)
 *   GET /bosun/v1/vnf_lcm_op_occs/{id}/events     the same as server-sent events, live, to its end
 *                                                 (Last-Event-ID resumes)
 * On PostgreSQL one LISTEN connection brings other processes' events to this one's streams.
 */
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { TimelineListener } from '../../../lcm/timeline/listen.ts';
import { opEvents } from '../../../lcm/timeline/read.ts';
import { ApiError } from '../../../sol/problem.ts';
import { EventStream } from './event-stream.ts';
import { loadVisibleOpOcc, opOccStateNow } from './load.ts';
import { OpenStreams } from './open-streams.ts';
import {
  EVENT_STREAM,
  EventStreamDescription,
  EventsQuery,
  Timeline,
  TimelineParams,
  TimelineQuery,
} from './schemas.ts';

const BASE = '/bosun/v1/vnf_lcm_op_occs/:id';
const MAX_LIMIT = 1000;

/** The event number a client resumes after: Last-Event-ID, else ?lastEventId=, else from the start. */
function resumeAfter(header: string | string[] | undefined, query: string | undefined): number {
  const raw = (Array.isArray(header) ? header[0] : header) ?? query;
  if (raw === undefined || raw === '') return 0;
  if (!/^[0-9]{1,9}$/.test(raw))
    throw new ApiError(
      400,
      `Last-Event-ID must be the id of an event of this stream (a number), got '${raw.slice(0, 64)}'.`,
    );
  return Number(raw);
}

export function registerTimeline(app: FastifyInstance): void {
  const { db, config, logger } = app.bosun;
  const settings = config.lcm.timeline;
  const streams = new OpenStreams();
  const listener = db.dialect === 'postgres' ? new TimelineListener(config.database.url, logger) : undefined;
  app.addHook('onReady', async () => listener?.start());
  // Streams never end by themselves while their op occ runs: end them before the server waits for requests.
  app.addHook('preClose', async () =>
    streams.closeAll('the server is shutting down: reconnect with Last-Event-ID'),
  );
  app.addHook('onClose', async () => listener?.stop());

  app.get(
    `${BASE}/timeline`,
    {
      schema: {
        params: TimelineParams,
        querystring: TimelineQuery,
        response: { 200: Timeline },
        summary: 'The timeline of an LCM operation occurrence so far',
      },
      config: { sol013: { access: 'read', scopesOf: 'vnflcm' } },
    },
    async (request) => {
      const { id } = request.params as Static<typeof TimelineParams>;
      const query = request.query as Static<typeof TimelineQuery>;
      const opOcc = await loadVisibleOpOcc(request, id);
      const limit = Math.min(Math.max(Number(query.limit ?? MAX_LIMIT), 1), MAX_LIMIT);
      const events = await opEvents(db.kysely, opOcc.id, Number(query.after ?? 0), limit + 1);
      // Read after the events: a state entered meanwhile has its event, which the next read gets.
      const state = (await opOccStateNow(db.kysely, opOcc.id)) ?? opOcc.operationState;
      return {
        vnfLcmOpOccId: opOcc.id,
        vnfInstanceId: opOcc.vnfInstanceId,
        operation: opOcc.operation,
        operationState: state,
        events: events.slice(0, limit),
        more: events.length > limit,
      };
    },
  );

  app.get(
    `${BASE}/events`,
    {
      schema: {
        params: TimelineParams,
        querystring: EventsQuery,
        summary: 'The timeline of an LCM operation occurrence as server-sent events, live',
        description: EventStreamDescription,
        response: {
          200: {
            description: EventStreamDescription,
            content: { [EVENT_STREAM]: { schema: Timeline.properties.events.items } },
          },
        },
      },
      config: { sol013: { access: 'read', scopesOf: 'vnflcm', produces: [EVENT_STREAM] } },
    },
    async (request, reply) => {
      const { id } = request.params as Static<typeof TimelineParams>;
      const query = request.query as Static<typeof EventsQuery>;
      const after = resumeAfter(request.headers['last-event-id'], query.lastEventId);
      const opOcc = await loadVisibleOpOcc(request, id);
      const release = streams.admit(OpenStreams.clientOf(request), settings.streamsPerClient);
      reply.hijack();
      const stream = new EventStream(reply.raw, {
        opOccId: opOcc.id,
        after,
        timing: {
          heartbeatMs: settings.heartbeatMs,
          pollMs: settings.pollMs,
          idleTimeoutMs: settings.streamIdleTimeoutMs,
        },
        logger: logger,
        source: {
          state: () => opOccStateNow(db.kysely, opOcc.id),
          events: (from, limit) => opEvents(db.kysely, opOcc.id, from, limit),
        },
      });
      const forget = streams.add(stream);
      stream.onEnd(() => {
        forget();
        release();
      });
      await stream.run();
    },
  );
}
