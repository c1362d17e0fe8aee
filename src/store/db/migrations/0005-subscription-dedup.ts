/**
 * Race-free duplicate subscriptions, and the LCM v2 verbosity: `dedup_key` (sha-256 of callback
 * URI, normal filter and verbosity, as notify/subscriptions/dedup.ts computes it) with a unique index per
 * project, API and major — two concurrent identical creations cannot both insert. Null keys
 * (subscriptions created while duplicates are allowed) are not constrained. Existing rows get
 * their key here; of pre-existing duplicates, the oldest keeps it.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('dedup_key', 'varchar(64)').execute();
  await db.schema.alterTable('subscriptions').addColumn('verbosity', 'varchar(8)').execute();
  const rows: {
    id: string;
    project_id: string;
    api: string;
    major: string;
    callback_uri: string;
    filter: string;
  }[] = await db
    .selectFrom('subscriptions')
    .select(['id', 'project_id', 'api', 'major', 'callback_uri', 'filter'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set<string>();
  for (const row of rows) {
    const key = dedupKey(row.callback_uri, JSON.parse(row.filter));
    const scoped = JSON.stringify([row.project_id, row.api, row.major, key]);
    if (taken.has(scoped)) continue;
    taken.add(scoped);
    await db.updateTable('subscriptions').set({ dedup_key: key }).where('id', '=', row.id).execute();
  }
  await db.schema
    .createIndex('subscriptions_dedup')
    .on('subscriptions')
    .columns(['project_id', 'api', 'major', 'dedup_key'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subscriptions_dedup').execute();
  await db.schema.alterTable('subscriptions').dropColumn('verbosity').execute();
  await db.schema.alterTable('subscriptions').dropColumn('dedup_key').execute();
}

// The key as notify/subscriptions/dedup.ts computed it when this migration was written (rows
// then had no verbosity), copied: a migration is history and must not change with live code.
function dedupKey(callbackUri: string, filter: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ callbackUri, filter: normalFilter(filter ?? {}) }))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const isEmpty = (value: unknown) =>
  (Array.isArray(value) && value.length === 0) ||
  (value !== null && typeof value === 'object' && Object.keys(value).length === 0);

function normalFilter(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(normalFilter);
    const byKey = new Map(items.map((item) => [canonicalJson(item), item]));
    return [...byKey.keys()].sort().map((key) => byKey.get(key));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const normal = normalFilter(v);
      if (!isEmpty(normal)) out[k] = normal;
    }
    return out;
  }
  return value;
}
