/**
 * GET /bosun/v1/status (admin only: the bosun:admin scope when authentication is on): the
 * cluster at a glance — the replicas registered, alive or stale, and each job queue's depth and
 * oldest waiting job — for `bosun status`. An API rather than a database read by the CLI: the
 * operator runs the CLI away from the database, with a token, as every other command.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { clusterStatus } from '../../ops/cluster-status.ts';

export const STATUS_PATH = '/bosun/v1/status';

const NoQuery = Type.Object({}, { additionalProperties: false });

export function registerStatus(app: FastifyInstance): void {
  app.get(
    STATUS_PATH,
    { schema: { querystring: NoQuery, hide: true }, config: { sol013: { access: 'admin' } } },
    (request) => clusterStatus(request.server.bosun.db.kysely),
  );
}
