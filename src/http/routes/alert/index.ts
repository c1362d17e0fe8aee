/**
 * Monitoring webhooks (not SOL: the receivers of the Prometheus plugin Bosun's design follows):
 *   POST /alert                          an Alertmanager batch; each alert names its instance
 *                                        (label vnf_instance_id)
 *   POST /alert/vnf_instances/{id}       the same for one instance (the label may be left out)
 * Answer 200 with what was taken and which alerts were refused and why (Alertmanager does not
 * resend a 2xx, so the good alerts of a batch are never sent twice for a bad one); 401 without
 * a configured receiver's credentials, 400 for a body that is not an Alertmanager webhook, 413
 * beyond fm.alertMaxBodyBytes or fm.alertMaxBatch alerts; a database failure is a 500, and
 * Alertmanager sends the batch again.
 *
 * Room for performance management: its webhooks (PM job reports, threshold crossings) are rows
 * of WEBHOOKS beside these — a path and the domain function taking the checked batch (e.g.
 * `/pm_event` → a receivePmEvents in the PM domain); authentication, limits and the envelope
 * check are this file's and apply to every row.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../../config/load.ts';
import { type AlertBatch, type BatchResult, receiveAlerts } from '../../../fm/alerts/receive.ts';
import { WebhookSchema } from '../../../fm/alerts/webhook.ts';
import { ApiError } from '../../../sol/problem.ts';
import type { Database } from '../../../store/db/database.ts';
import { alertReceiver } from './authenticate.ts';

interface Webhook {
  path: string;
  params?: Record<string, unknown>;
  /** The batch's instance from the path, if the path names one. */
  instanceOf?: (request: FastifyRequest) => string;
  receive: (db: Database, config: Config, batch: AlertBatch) => Promise<BatchResult>;
}

const ID_PARAMS = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['id'],
} as const;

const WEBHOOKS: readonly Webhook[] = [
  { path: '/alert', receive: receiveAlerts },
  {
    path: '/alert/vnf_instances/:id',
    params: ID_PARAMS,
    instanceOf: (request) => (request.params as { id: string }).id,
    receive: receiveAlerts,
  },
];

export function registerAlertWebhooks(app: FastifyInstance): void {
  const { config } = app.bosun;
  for (const hook of WEBHOOKS) {
    app.post(
      hook.path,
      {
        bodyLimit: config.fm.alertMaxBodyBytes,
        schema: { body: WebhookSchema, ...(hook.params ? { params: hook.params } : {}) },
        // Not an OAuth 2.0 API: the receivers' own credentials, checked in the handler.
        config: { sol013: { access: 'public' } },
        // Credentials first: an unauthenticated caller learns nothing of what the body should be.
        preValidation: async (request) => {
          request.alertReceiver = alertReceiver(request, config.fm.alertReceivers);
        },
      },
      async (request) => {
        const { alerts } = request.body as { alerts: unknown[] };
        if (alerts.length > config.fm.alertMaxBatch) {
          throw new ApiError(
            413,
            `The batch has ${alerts.length} alerts; at most ${config.fm.alertMaxBatch} are taken at once (fm.alertMaxBatch): lower Alertmanager's max_alerts.`,
          );
        }
        const receiver = request.alertReceiver;
        const result = await hook.receive(app.bosun.db, config, {
          alerts,
          ...(hook.instanceOf ? { pathInstanceId: hook.instanceOf(request) } : {}),
          ...(receiver?.project ? { project: receiver.project } : {}),
        });
        request.log.info(
          { receiver: receiver?.name, received: result.received, refused: result.refused.length },
          'alert webhook',
        );
        return result;
      },
    );
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The fm.alertReceivers entry whose credentials the webhook carried. */
    alertReceiver?: import('./authenticate.ts').AlertReceiver;
  }
}
