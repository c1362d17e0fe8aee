/**
 * Subscriptions of every API, project-scoped: create (authentication sealed), find a duplicate,
 * get, delete. Lists go through the SOL013 list engine (see the routes).
 */
import { randomUUID } from 'node:crypto';
import type { SealedBox } from '../security/sealed-box.ts';
import type { SubscriptionsTable } from '../store/db/tables.ts';
import type { Executor } from '../store/db/transaction.ts';

export interface SubscriptionRecord {
  id: string;
  projectId: string;
  api: string;
  major: string;
  callbackUri: string;
  filter: Record<string, unknown>;
  /** Whether authentication is stored (it is never returned). */
  hasAuthentication: boolean;
  createdAt: string;
}

export interface NewSubscription {
  projectId: string;
  api: string;
  major: string;
  callbackUri: string;
  filter?: Record<string, unknown>;
  authentication?: Record<string, unknown>;
}

export function subscriptionFromRow(row: SubscriptionsTable): SubscriptionRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    api: row.api,
    major: row.major,
    callbackUri: row.callback_uri,
    filter: JSON.parse(row.filter) as Record<string, unknown>,
    hasAuthentication: row.authentication !== null,
    createdAt: row.created_at,
  };
}

/** Canonical JSON (sorted keys), so that equal filters compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A subscription of the project, API and major with the same callback and the same filter. */
export async function findDuplicate(
  db: Executor,
  wanted: NewSubscription,
): Promise<SubscriptionRecord | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('project_id', '=', wanted.projectId)
    .where('api', '=', wanted.api)
    .where('major', '=', wanted.major)
    .where('callback_uri', '=', wanted.callbackUri)
    .where('filter', '=', canonicalJson(wanted.filter ?? {}))
    .orderBy('id')
    .executeTakeFirst();
  return row ? subscriptionFromRow(row) : undefined;
}

export async function createSubscription(
  db: Executor,
  box: SealedBox,
  wanted: NewSubscription,
): Promise<SubscriptionRecord> {
  const row: SubscriptionsTable = {
    id: randomUUID(),
    project_id: wanted.projectId,
    api: wanted.api,
    major: wanted.major,
    callback_uri: wanted.callbackUri,
    filter: canonicalJson(wanted.filter ?? {}),
    authentication: wanted.authentication ? box.seal(JSON.stringify(wanted.authentication)) : null,
    created_at: new Date().toISOString(),
  };
  await db.insertInto('subscriptions').values(row).execute();
  return subscriptionFromRow(row);
}

/** Subscriptions are resources of one API major: /vnfpkgm/v1/subscriptions and /v2 are distinct. */
export interface SubscriptionScope {
  api: string;
  major: string;
}

/** The subscription of this API major, if it exists and `project` (undefined: any) owns it. */
export async function getSubscription(
  db: Executor,
  scope: SubscriptionScope,
  id: string,
  project: string | undefined,
): Promise<SubscriptionRecord | undefined> {
  let query = db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', '=', id)
    .where('api', '=', scope.api)
    .where('major', '=', scope.major);
  if (project !== undefined) query = query.where('project_id', '=', project);
  const row = await query.executeTakeFirst();
  return row ? subscriptionFromRow(row) : undefined;
}

/** The stored authentication, opened (for delivery). */
export async function openAuthentication(
  db: Executor,
  box: SealedBox,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .select('authentication')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row?.authentication) return undefined;
  return JSON.parse(box.open(row.authentication).toString('utf8')) as Record<string, unknown>;
}

/**
 * Deletes the subscription and its undelivered notifications; false when it does not exist
 * (in this API major) or belongs to another project.
 */
export async function deleteSubscription(
  db: Executor,
  scope: SubscriptionScope,
  id: string,
  project: string | undefined,
): Promise<boolean> {
  let query = db
    .deleteFrom('subscriptions')
    .where('id', '=', id)
    .where('api', '=', scope.api)
    .where('major', '=', scope.major);
  if (project !== undefined) query = query.where('project_id', '=', project);
  const result = await query.executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) return false;
  await db.deleteFrom('notification_outbox').where('subscription_id', '=', id).execute();
  return true;
}
