/**
 * Fixtures of the alarm domain tests: a fresh migrated database (SQLite or PostgreSQL), VNF
 * instances written straight into an LCM major's table, FM subscriptions, the outbox rows
 * written since the last look, and a valid alarm input to vary.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { RaiseAlarmInput } from '../../src/fm/index.ts';
import { LCM_V1, LCM_V2 } from '../../src/lcm/store.ts';
import { createSubscription } from '../../src/notify/subscription-store.ts';
import { SealedBox } from '../../src/security/sealed-box.ts';
import { type Database, openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { freshDatabaseUrl, type TestDialect } from '../support/databases.ts';

export async function freshDatabase(dialect: TestDialect): Promise<Database> {
  const db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 4 });
  await migrate(db);
  return db;
}

export interface InstanceFixture {
  id?: string;
  projectId?: string;
  name?: string;
  vnfdId?: string;
  major?: 'v1' | 'v2';
}

/** A NOT_INSTANTIATED VNF instance in the major's table; returns its id. */
export async function addInstance(db: Database, fixture: InstanceFixture = {}): Promise<string> {
  const id = fixture.id ?? randomUUID();
  const now = new Date().toISOString();
  await (fixture.major === 'v1' ? LCM_V1 : LCM_V2).insertInstance(db.kysely, {
    id,
    projectId: fixture.projectId ?? 'p1',
    vnfInstanceName: fixture.name ?? `fm-test-${id.slice(0, 8)}`,
    vnfdId: fixture.vnfdId ?? 'vnfd-fm-1',
    vnfPkgId: randomUUID(),
    vnfProvider: 'Company',
    vnfProductName: 'Sample VNF',
    vnfSoftwareVersion: '1.0',
    vnfdVersion: '1.0',
    instantiationState: 'NOT_INSTANTIATED',
    vimConnectionInfo: {},
    vnfConfigurableProperties: {},
    metadata: {},
    extensions: {},
    createdAt: now,
    updatedAt: now,
    version: 1,
  });
  return id;
}

const box = new SealedBox(randomBytes(32));

/** An FM subscription of the project (default p1) with `filter`; returns its id. */
export async function addFmSubscription(
  db: Database,
  filter?: Record<string, unknown>,
  projectId = 'p1',
): Promise<string> {
  const record = await createSubscription(
    db.kysely,
    box,
    { projectId, api: 'vnffm', major: 'v1', callbackUri: `http://127.0.0.1:1/${randomUUID()}`, filter },
    'allow',
  );
  return record.id;
}

export interface OutboxRow {
  subscriptionId: string;
  notificationType: string;
  payload: Record<string, unknown> & { notificationType: string };
}

/** Reads the outbox rows written after the previous call of the same reader. */
export function outboxReader(db: Database): () => Promise<OutboxRow[]> {
  let seen = 0;
  return async () => {
    const rows = await db.kysely.selectFrom('notification_outbox').selectAll().orderBy('id').execute();
    const fresh = rows.slice(seen);
    seen = rows.length;
    return fresh.map((r) => ({
      subscriptionId: r.subscription_id,
      notificationType: r.notification_type,
      payload: JSON.parse(r.payload),
    }));
  };
}

/** A valid input: a crashed server of `instanceId`, with `changes` over it. */
export function serverDown(instanceId: string, changes: Partial<RaiseAlarmInput> = {}): RaiseAlarmInput {
  return {
    fingerprint: `fp-${instanceId.slice(0, 8)}-vdu1`,
    managedObjectId: instanceId,
    vnfcInstanceIds: ['VDU1-0'],
    rootCauseFaultyResource: {
      faultyResource: {
        vimConnectionId: 'sim',
        resourceId: 'server-1',
        vimLevelResourceType: 'OS::Nova::Server',
      },
      faultyResourceType: 'COMPUTE',
    },
    perceivedSeverity: 'CRITICAL',
    eventType: 'EQUIPMENT_ALARM',
    probableCause: 'server down',
    faultDetails: ['server-1 is in ERROR'],
    ...changes,
  };
}
