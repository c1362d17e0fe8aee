/**
 * Subscriptions of every API, project-scoped: create (authentication sealed; duplicates refused
 * race-free through the dedup key's unique index), find a duplicate, get, delete. Lists go
 * through the SOL013 list engine (http/routes/subscriptions/list-resource.ts).
 */
import { randomUUID } from 'node:crypto';
import type { SealedBox } from '../security/sealed-box.ts';
import type { SubscriptionsTable } from '../store/db/tables.ts';
import type { Executor } from '../store/db/transaction.ts';
import { deleteQueue } from './delivery/queue.ts';
import { canonicalJson, dedupKey } from './subscriptions/dedup.ts';

export { canonicalJson } from './subscriptions/dedup.ts';

export interface SubscriptionRecord {
  id: string;
  projectId: string;
  api: string;
  major: string;
  callbackUri: string;
  filter: Record<string, unknown>;
  /** LCM v2: FULL or SHORT. */
  verbosity?: string;
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
  verbosity?: string;
  authentication?: Record<string, unknown>;
}

/** 'see-other': a duplicate is refused (and shown); 'allow': duplicates are stored. */
export type DuplicatePolicy = 'see-other' | 'allow';

export function subscriptionFromRow(row: SubscriptionsTable): SubscriptionRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    api: row.api,
    major: row.major,
    callbackUri: row.callback_uri,
    filter: JSON.parse(row.filter) as Record<string, unknown>,
    ...(row.verbosity ? { verbosity: row.verbosity } : {}),
    hasAuthentication: row.authentication !== null,
    createdAt: row.created_at,
  };
}

const keyOf = (wanted: NewSubscription) =>
  dedupKey({ callbackUri: wanted.callbackUri, filter: wanted.filter, verbosity: wanted.verbosity });

/**
 * The subscription of the project, API and major with the same callback, the same filter (as a
 * set of criteria) and the same verbosity, if one was stored while duplicates were refused.
 */
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
    .where('dedup_key', '=', keyOf(wanted))
    .executeTakeFirst();
  return row ? subscriptionFromRow(row) : undefined;
}

function newRow(box: SealedBox, wanted: NewSubscription, duplicates: DuplicatePolicy) {
  return {
    id: randomUUID(),
    project_id: wanted.projectId,
    api: wanted.api,
    major: wanted.major,
    callback_uri: wanted.callbackUri,
    filter: canonicalJson(wanted.filter ?? {}),
    authentication: wanted.authentication ? box.seal(JSON.stringify(wanted.authentication)) : null,
    created_at: new Date().toISOString(),
    dedup_key: duplicates === 'see-other' ? keyOf(wanted) : null,
    verbosity: wanted.verbosity ?? null,
  } satisfies SubscriptionsTable;
}

/**
 * Stores the subscription — unless, with duplicates refused, an identical one exists or is
 * inserted concurrently: the unique index decides, on SQLite and PostgreSQL alike.
 */
export async function createOrFindDuplicate(
  db: Executor,
  box: SealedBox,
  wanted: NewSubscription,
  duplicates: DuplicatePolicy = 'see-other',
): Promise<{ created: boolean; record: SubscriptionRecord }> {
  const row = newRow(box, wanted, duplicates);
  try {
    await db.insertInto('subscriptions').values(row).execute();
  } catch (error) {
    // A violation of the dedup index: the other insert won; anything else is a real failure.
    const existing = duplicates === 'see-other' ? await findDuplicate(db, wanted) : undefined;
    if (!existing) throw error;
    return { created: false, record: existing };
  }
  return { created: true, record: subscriptionFromRow(row) };
}

/** Stores the subscription; throws if an identical one exists (duplicates refused by default). */
export async function createSubscription(
  db: Executor,
  box: SealedBox,
  wanted: NewSubscription,
  duplicates: DuplicatePolicy = 'see-other',
): Promise<SubscriptionRecord> {
  const row = newRow(box, wanted, duplicates);
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
 * Deletes the subscription, its undelivered notifications and its delivery state (so the admin
 * API and metrics never show a deleted subscription's queue); false when it does not exist (in
 * this API major) or belongs to another project. Run it in a transaction: a delivery in flight
 * then finds nothing to record and its lease gone, and cannot re-create the state.
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
  await deleteQueue(db, id);
  return true;
}
