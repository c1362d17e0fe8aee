/**
 * /vnffm/v1/alarms (SOL003 and SOL002 v3.3.1, API 1.3.0):
 *   GET   /alarms                      list: filter, selectors, paging, newest first
 *   GET   /alarms/{alarmId}            one alarm, with its ETag
 *   PATCH /alarms/{alarmId}            AlarmModifications {ackState}: 200 with the modifications,
 *                                      409 when the alarm already is in that state, If-Match → 412
 *   POST  /alarms/{alarmId}/escalate   SOL002 PerceivedSeverityRequest: 204, with AlarmNotification
 * Another project's alarm is 404. Raising and clearing belong to the fault sources (fm/).
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACK_STATES, ackAlarm, escalateAlarm, findAlarm } from '../../../fm/index.ts';
import { PERCEIVED_SEVERITIES } from '../../../notify/fm-filter.ts';
import { stringEnum } from '../../../notify/subscriptions/schema-helpers.ts';
import { notFound } from '../../../sol/problem.ts';
import { visibleProject } from '../../auth/caller.ts';
import { checkIfMatch, etagOf, setEtag } from '../../sol013/etag.ts';
import { listPage, listQuerySchema, sendPage } from '../../sol013/list-query.ts';
import type { Sol013RouteConfig } from '../../sol013/route-config.ts';
import { alarmList } from './alarm-list.ts';
import { alarmView } from './views.ts';

const sol013: Sol013RouteConfig = { api: 'vnffm', major: 'v1' };
const BASE = '/vnffm/v1/alarms';

const Params = Type.Object({ alarmId: Type.String({ minLength: 1, maxLength: 255 }) });
const AlarmModifications = Type.Object(
  { ackState: stringEnum(ACK_STATES, 'The new acknowledgement state.') },
  { additionalProperties: false, description: 'SOL003 AlarmModifications' },
);
const PerceivedSeverityRequest = Type.Object(
  {
    proposedPerceivedSeverity: stringEnum(
      PERCEIVED_SEVERITIES,
      'The proposed, more urgent, perceived severity of the alarm.',
    ),
  },
  { additionalProperties: false, description: 'SOL002 PerceivedSeverityRequest' },
);

const alarmIdOf = (request: FastifyRequest) => (request.params as Static<typeof Params>).alarmId;

async function loadAlarm(request: FastifyRequest) {
  const id = alarmIdOf(request);
  const alarm = await findAlarm(request.server.bosun.db.kysely, id, visibleProject(request.caller));
  if (!alarm) throw notFound(`Alarm ${id} does not exist.`);
  return alarm;
}

/** The version the caller's If-Match holds on to (412 when it names another), if it sent one. */
async function expectedVersion(request: FastifyRequest) {
  const current = await loadAlarm(request);
  checkIfMatch(request, etagOf(alarmView(current, request)));
  return request.headers['if-match'] === undefined ? undefined : current.version;
}

export function mountAlarms(app: FastifyInstance): void {
  app.get(
    BASE,
    { schema: { querystring: listQuerySchema({ selectors: true }) }, config: { sol013 } },
    async (request, reply) => sendPage(request, reply, await listPage(request, alarmList)),
  );

  app.get(`${BASE}/:alarmId`, { schema: { params: Params }, config: { sol013 } }, async (request, reply) => {
    const view = alarmView(await loadAlarm(request), request);
    setEtag(reply, etagOf(view));
    return view;
  });

  app.patch(
    `${BASE}/:alarmId`,
    { schema: { params: Params, body: AlarmModifications }, config: { sol013 } },
    async (request, reply) => {
      const { ackState } = request.body as Static<typeof AlarmModifications>;
      const alarm = await ackAlarm(request.server.bosun.db, {
        id: alarmIdOf(request),
        project: visibleProject(request.caller),
        ackState,
        expectedVersion: await expectedVersion(request),
      });
      setEtag(reply, etagOf(alarmView(alarm, request)));
      return reply.code(200).send({ ackState });
    },
  );

  app.post(
    `${BASE}/:alarmId/escalate`,
    { schema: { params: Params, body: PerceivedSeverityRequest }, config: { sol013 } },
    async (request, reply) => {
      const { proposedPerceivedSeverity } = request.body as Static<typeof PerceivedSeverityRequest>;
      await escalateAlarm(request.server.bosun.db, {
        id: alarmIdOf(request),
        project: visibleProject(request.caller),
        proposedPerceivedSeverity,
        expectedVersion: await expectedVersion(request),
      });
      return reply.code(204).send();
    },
  );
}
