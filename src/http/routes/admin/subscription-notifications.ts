/**
 * The notifications queued for one subscription, so an operator sees what died and why before
 * redelivering (admin only, as the rest of /bosun/v1/subscriptions):
 *   GET /bosun/v1/subscriptions/{id}/notifications[?filter=(eq,state,dead)]
 * FIFO (delivery order), paged with the SOL013 marker like every list.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type QueuedNotification,
  type QueuedRow,
  queuedQuery,
  toQueued,
} from '../../../notify/delivery/queued.ts';
import { subscriptionStatus } from '../../../notify/delivery/status.ts';
import type { AttributeMap } from '../../../sol/attributes.ts';
import { ApiError } from '../../../sol/problem.ts';
import { type ListResource, listPage, listQuerySchema, sendPage } from '../../sol013/list-query.ts';

const PATH = '/bosun/v1/subscriptions/:subscriptionId/notifications';

const ATTRIBUTES: AttributeMap = {
  seq: { type: 'string' },
  notificationId: { type: 'string', column: 'notification_id' },
  notificationType: { type: 'string', column: 'notification_type' },
  state: { type: 'string', column: 'state' },
  attempts: { type: 'number', column: 'attempts' },
  createdAt: { type: 'datetime', column: 'created_at' },
  nextAttemptAt: { type: 'datetime' },
  lastError: { type: 'string' },
};

export const QueuedNotificationSchema = Type.Object({
  seq: Type.String({ description: 'position in the delivery order' }),
  notificationId: Type.String(),
  notificationType: Type.String(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('dead')]),
  attempts: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  nextAttemptAt: Type.Optional(Type.String({ format: 'date-time' })),
  lastError: Type.Optional(Type.String()),
});

const Params = Type.Object({ subscriptionId: Type.String({ minLength: 1, maxLength: 64 }) });

function resource(subscriptionId: string): ListResource<QueuedRow, QueuedNotification> {
  return {
    name: 'bosun_subscription_notifications',
    attributes: ATTRIBUTES,
    defaultExcluded: [],
    selectors: false,
    // Admin only: the subscription's project does not narrow what an admin sees.
    select: (db) => queuedQuery(db, subscriptionId),
    keyColumn: 'id',
    keyOf: (row) => String(row.id),
    toView: (row) => toQueued(row),
  };
}

export function registerSubscriptionNotifications(app: FastifyInstance): void {
  app.get(
    PATH,
    {
      schema: {
        summary: "A subscription's queued notifications (pending and dead), in delivery order",
        params: Params,
        querystring: listQuerySchema({ selectors: false }),
        response: { 200: Type.Array(QueuedNotificationSchema) },
      },
      config: { sol013: { access: 'admin' } },
    },
    async (request: FastifyRequest, reply) => {
      const { subscriptionId } = request.params as { subscriptionId: string };
      if (!(await subscriptionStatus(request.server.bosun.db.kysely, subscriptionId))) {
        throw new ApiError(404, `Subscription ${subscriptionId} does not exist.`);
      }
      return sendPage(request, reply, await listPage(request, resource(subscriptionId)));
    },
  );
}
