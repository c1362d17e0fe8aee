/**
 * The alarm list rebuild (admin only: the bosun:admin scope when authentication is on), for
 * after data loss or a restore from a backup:
 *   POST /bosun/v1/alarms/rebuild   {project?} (or no body): every FM subscriber of the project (of every
 *                                   project with FM subscriptions or open alarms when none is
 *                                   named) gets AlarmListRebuiltNotification
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { rebuildAlarmList } from '../../../fm/index.ts';

const RebuildBody = Type.Object(
  { project: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) },
  { additionalProperties: false },
);

export function registerAlarmAdmin(app: FastifyInstance): void {
  app.post(
    '/bosun/v1/alarms/rebuild',
    {
      schema: { body: RebuildBody },
      config: { sol013: { access: 'admin' } },
      // No body is no project named (curl -X POST): every project.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { project } = request.body as Static<typeof RebuildBody>;
      const { projects, notified } = await rebuildAlarmList(request.server.bosun.db, { project });
      return { projects, notified };
    },
  );
}
