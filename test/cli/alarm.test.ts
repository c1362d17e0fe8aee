/**
 * `bosun alarm …` and `bosun fm subscribe` as a user runs them (the real command, a real server
 * on SQLite): listing with filters and -q, showing, acknowledging and un-acknowledging with the
 * server's 409 as a one-line error, escalation, the rebuild reaching the FM subscribers, and a
 * subscription whose filter comes from flags.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { raiseAlarm } from '../../src/fm/index.ts';
import { addInstance, serverDown } from '../fm/support.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function bosun(args: string[], env: Record<string, string>): Promise<Run> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BOSUN_')) clean[k] = v;
  return new Promise((resolve) => {
    execFile(BOSUN, args, { env: { ...clean, ...env } }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: number }).code : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

describe('bosun alarm and bosun fm against a server', () => {
  let server: TestServer;
  let env: Record<string, string>;
  let instance: string;
  let critical: string;
  let minor: string;
  const ok = async (...args: string[]) => {
    const r = await bosun(args, env);
    assert.equal(r.code, 0, `bosun ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    server = await startTestServer('sqlite', {
      config: { outbound: { allow: ['127.0.0.1'] }, notify: { callbackTest: false } },
    });
    env = { BOSUN_URL: server.url };
    const db = server.context.db;
    instance = await addInstance(db, { projectId: 'default' });
    const other = await addInstance(db, { projectId: 'default' });
    critical = (await raiseAlarm(db, serverDown(instance, { fingerprint: 'cli-1' }))).alarm.id;
    minor = (
      await raiseAlarm(
        db,
        serverDown(other, { fingerprint: 'cli-2', perceivedSeverity: 'MINOR', probableCause: 'slow disk' }),
      )
    ).alarm.id;
  });
  after(() => server.close());

  test('list prints a table of every alarm; --severity, --instance and --filter narrow it; -q prints ids', async () => {
    const table = await ok('alarm', 'list');
    assert.match(table.split('\n')[0], /^id\s+severity\s+ack\s+instance\s+resource\s+vnfcs\s+cause\s+raised/);
    assert.ok(table.includes(critical) && table.includes(minor));
    assert.match(table, /CRITICAL\s+no\s+\S+\s+server-1\s+VDU1-0\s+server down/);
    assert.deepEqual((await ok('alarm', 'list', '--severity', 'minor', '-q')).trim().split('\n'), [minor]);
    assert.deepEqual((await ok('alarm', 'list', '--instance', instance, '-q')).trim().split('\n'), [
      critical,
    ]);
    assert.deepEqual(
      (await ok('alarm', 'list', '--filter', "(cont,probableCause,'disk')", '-q')).trim().split('\n'),
      [minor],
    );
    const json = JSON.parse(await ok('alarm', 'list', '--json')) as { id: string }[];
    assert.equal(json.length, 2);
    const bad = await bosun(['alarm', 'list', '--filter', '(eq,nope,1)'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /nope/);
  });

  test('show prints the alarm; an unknown id exits 1 saying so', async () => {
    const shown = await ok('alarm', 'show', critical);
    assert.match(shown, new RegExp(`^id\\s+${critical}$`, 'm'));
    assert.match(shown, /^perceivedSeverity\s+CRITICAL$/m);
    const missing = await bosun(['alarm', 'show', 'no-such-alarm'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Alarm no-such-alarm does not exist/);
  });

  test('ack and unack change the ackState; acknowledging twice exits 1 with the reason', async () => {
    assert.match(await ok('alarm', 'ack', critical), /ACKNOWLEDGED/);
    assert.equal(
      (JSON.parse(await ok('alarm', 'show', critical, '--json')) as { ackState: string }).ackState,
      'ACKNOWLEDGED',
    );
    const twice = await bosun(['alarm', 'ack', critical], env);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /already ACKNOWLEDGED/);
    assert.match(await ok('alarm', 'unack', critical), /UNACKNOWLEDGED/);
    assert.equal(
      (JSON.parse(await ok('alarm', 'show', critical, '--json')) as { ackState: string }).ackState,
      'UNACKNOWLEDGED',
    );
  });

  test('escalate raises the severity; a lower one exits 1', async () => {
    await ok('alarm', 'escalate', minor, 'major');
    assert.match(await ok('alarm', 'show', minor), /^perceivedSeverity\s+MAJOR$/m);
    const lower = await bosun(['alarm', 'escalate', minor, 'warning'], env);
    assert.equal(lower.code, 1);
    assert.match(lower.stderr, /more urgent severity/);
  });

  test('fm subscribe builds the filter from flags; rebuild queues the rebuilt notification for it', async () => {
    const id = (
      await ok(
        'fm',
        'subscribe',
        '--callback-uri',
        'http://127.0.0.1:9/fm',
        '--instance',
        instance,
        '--severity',
        'critical',
        '--resource-type',
        'compute',
        '--notification-type',
        'AlarmListRebuiltNotification',
        '-q',
      )
    ).trim();
    const subscription = await server.context.db.kysely
      .selectFrom('subscriptions')
      .select(['api', 'filter'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(subscription.api, 'vnffm');
    assert.deepEqual(JSON.parse(subscription.filter), {
      notificationTypes: ['AlarmListRebuiltNotification'],
      vnfInstanceSubscriptionFilter: { vnfInstanceIds: [instance] },
      perceivedSeverities: ['CRITICAL'],
      faultyResourceTypes: ['COMPUTE'],
    });
    assert.match(await ok('alarm', 'rebuild'), /alarm list rebuilt: 1 notification\(s\) queued for default/);
    const queued = await server.context.db.kysely
      .selectFrom('notification_outbox')
      .select('notification_type')
      .where('subscription_id', '=', id)
      .execute();
    assert.deepEqual(
      queued.map((q) => q.notification_type),
      ['AlarmListRebuiltNotification'],
    );
  });
});
