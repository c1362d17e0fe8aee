/**
 * /vnffm/v1/alarms over real HTTP with OAuth 2.0 on both databases: the list (newest first,
 * SOL013 filters, selectors, paging by Link), one alarm with its ETag, acknowledgement by PATCH
 * (409 for the same state, 412 for a stale If-Match), SOL002 escalation, scopes and project
 * isolation. Representations are checked against ETSI's Alarm schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { raiseAlarm } from '../../../src/fm/index.ts';
import { addInstance, serverDown } from '../../fm/support.ts';
import { assertEtsiValid, FM_API } from '../../notify/subscriptions/etsi-schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type HttpResult, http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { addClient, bearer, tokenOf } from '../auth/oauth2-support.ts';

type Alarm = Record<string, unknown> & { id: string; _links: Record<string, { href: string }> };
const V = { Version: '1.3.0' };

for (const dialect of DIALECTS) {
  describe(`/vnffm/v1/alarms on ${dialect}`, () => {
    let server: TestServer;
    let a: Record<string, string>;
    let aReadonly: Record<string, string>;
    let b: Record<string, string>;
    let instanceA: string;
    let instanceB: string;
    /** tenant-a's alarms, oldest first. */
    const ids: string[] = [];
    let foreign: string;

    const get = <T = unknown>(
      path: string,
      who: Record<string, string>,
      headers: Record<string, string> = {},
    ) => http<T>(server.url, 'GET', path, { headers: { ...V, ...who, ...headers } });
    const send = (method: string, path: string, who: Record<string, string>, body: unknown, headers = {}) =>
      http(server.url, method, path, {
        headers: { ...V, ...who, 'content-type': 'application/merge-patch+json', ...headers },
        body: JSON.stringify(body),
      });

    before(async () => {
      server = await startTestServer(dialect, {
        config: { auth: { mode: 'oauth2' }, paging: { pageSizes: { alarms: 2 } } },
      });
      a = bearer(await tokenOf(server, await addClient(server, ['vnffm:v1:all'], 'tenant-a')));
      aReadonly = bearer(await tokenOf(server, await addClient(server, ['vnffm:v1:readonly'], 'tenant-a')));
      b = bearer(await tokenOf(server, await addClient(server, ['vnffm:v1:all'], 'tenant-b')));
      const db = server.context.db;
      instanceA = await addInstance(db, { projectId: 'tenant-a' });
      instanceB = await addInstance(db, { projectId: 'tenant-b' });
      const raise = async (n: number, changes: Parameters<typeof serverDown>[1]) => {
        const { alarm } = await raiseAlarm(db, serverDown(instanceA, { fingerprint: `fp-${n}`, ...changes }));
        ids.push(alarm.id);
        // Distinct raise times: the list is newest first.
        await new Promise((resolve) => setTimeout(resolve, 3));
      };
      await raise(1, { perceivedSeverity: 'CRITICAL' });
      await raise(2, { perceivedSeverity: 'MAJOR', probableCause: 'link down' });
      await raise(3, {
        perceivedSeverity: 'MINOR',
        eventType: 'QOS_ALARM',
        vnfcInstanceIds: ['VDU2-0'],
        rootCauseFaultyResource: {
          faultyResource: { vimConnectionId: 'sim', resourceId: 'vol-1' },
          faultyResourceType: 'STORAGE',
        },
      });
      await raise(4, { perceivedSeverity: 'WARNING' });
      await raise(5, { perceivedSeverity: 'MAJOR', faultType: 'disk' });
      foreign = (await raiseAlarm(db, serverDown(instanceB, { fingerprint: 'fp-b' }))).alarm.id;
    });
    after(() => server.close());

    /** Every page of `path` (following Link), and the number of pages. */
    async function all(path: string): Promise<{ items: Alarm[]; pages: number }> {
      const items: Alarm[] = [];
      let next: string | undefined = path;
      const nextOf = (link: string | null) => {
        const url = link && /<([^>]+)>; rel="next"/.exec(link)?.[1];
        return url ? url.slice(server.url.length) : undefined;
      };
      let pages = 0;
      while (next) {
        const r: HttpResult<Alarm[]> = await get<Alarm[]>(next, a);
        assert.equal(r.status, 200, r.text);
        items.push(...r.body);
        pages++;
        next = nextOf(r.headers.get('link'));
      }
      return { items, pages };
    }

    test("the list holds the caller's project's alarms, newest first, paged by Link, each a valid Alarm", async () => {
      const { items, pages } = await all('/vnffm/v1/alarms');
      assert.deepEqual(
        items.map((i) => i.id),
        [...ids].reverse(),
      );
      assert.equal(pages, 3);
      for (const item of items) assertEtsiValid(`${FM_API}/alarm.schema.json`, item, 'a listed alarm');
      assert.equal(items[0]._links.self.href, `${server.url}/vnffm/v1/alarms/${ids[4]}`);
      assert.equal(items[0]._links.objectInstance.href, `${server.url}/vnflcm/v2/vnf_instances/${instanceA}`);
      const missing = await http(server.url, 'GET', '/vnffm/v1/alarms', { headers: a });
      assert.ok(isProblem(missing, 400), 'the Version header is required');
    });

    test('filters on severity, faulty resource type, instance, cause, VNFC and time; an unknown attribute is 400', async () => {
      const only = async (filter: string) =>
        (await all(`/vnffm/v1/alarms?filter=${encodeURIComponent(filter)}`)).items.map((i) => i.id).sort();
      assert.deepEqual(await only('(eq,perceivedSeverity,MAJOR)'), [ids[1], ids[4]].sort());
      assert.deepEqual(await only('(eq,rootCauseFaultyResource/faultyResourceType,STORAGE)'), [ids[2]]);
      assert.deepEqual(await only(`(eq,managedObjectId,${instanceA});(eq,eventType,QOS_ALARM)`), [ids[2]]);
      assert.deepEqual(await only(`(eq,managedObjectId,${instanceB})`), [], "another project's instance");
      assert.deepEqual(await only("(cont,probableCause,'link')"), [ids[1]]);
      assert.deepEqual(await only('(eq,vnfcInstanceIds,VDU2-0)'), [ids[2]]);
      assert.deepEqual(await only('(eq,faultType,disk)'), [ids[4]]);
      assert.deepEqual(await only('(eq,ackState,ACKNOWLEDGED)'), []);
      assert.equal((await only('(neq,perceivedSeverity,CRITICAL)')).length, 4);
      const bad = await get('/vnffm/v1/alarms?filter=(eq,nsInstanceId,x)', a);
      assert.ok(isProblem(bad, 400));
      assert.match((bad.body as { detail: string }).detail, /nsInstanceId/);
      assert.ok(isProblem(await get('/vnffm/v1/alarms?nsInstanceId=x', a), 400), 'a pre-SOL013 filter');
      assert.ok(isProblem(await get('/vnffm/v1/alarms?filter=(eq,perceivedSeverity,LOUD)', a), 400));
    });

    test('attribute selectors keep or drop attributes; an unknown one is 400', async () => {
      // Selectors choose complex attributes; the simple ones always stay.
      const fields = await get<Alarm[]>('/vnffm/v1/alarms?fields=faultDetails', a);
      assert.equal(fields.status, 200);
      assert.ok(fields.body.every((i) => 'faultDetails' in i && 'probableCause' in i));
      assert.ok(fields.body.every((i) => !('rootCauseFaultyResource' in i) && !('vnfcInstanceIds' in i)));
      const excluded = await get<Alarm[]>('/vnffm/v1/alarms?exclude_fields=faultDetails,vnfcInstanceIds', a);
      assert.ok(excluded.body.every((i) => !('faultDetails' in i) && 'rootCauseFaultyResource' in i));
      const dflt = await get<Alarm[]>('/vnffm/v1/alarms?exclude_default', a);
      assert.ok(
        dflt.body.every((i) => 'faultDetails' in i),
        'SOL excludes nothing by default',
      );
      assert.ok(isProblem(await get('/vnffm/v1/alarms?fields=criteria', a), 400));
    });

    test('one alarm: 200 with ETag; 404 for an unknown id and for another project', async () => {
      const r = await get<Alarm>(`/vnffm/v1/alarms/${ids[0]}`, a);
      assert.equal(r.status, 200);
      assertEtsiValid(`${FM_API}/alarm.schema.json`, r.body, 'the alarm');
      assert.match(r.headers.get('etag') ?? '', /^"[^"]+"$/);
      assert.equal(r.body.perceivedSeverity, 'CRITICAL');
      assert.ok(isProblem(await get(`/vnffm/v1/alarms/${foreign}`, a), 404));
      assert.ok(isProblem(await get('/vnffm/v1/alarms/no-such-alarm', a), 404));
      assert.equal((await get(`/vnffm/v1/alarms/${foreign}`, b)).status, 200);
    });

    test('PATCH acknowledges: 200 with the modifications and a new ETag; the same state is 409, a stale If-Match 412', async () => {
      const path = `/vnffm/v1/alarms/${ids[1]}`;
      const before = await get<Alarm>(path, a);
      const etag = before.headers.get('etag') ?? '';
      const acked = await send('PATCH', path, a, { ackState: 'ACKNOWLEDGED' }, { 'if-match': etag });
      assert.equal(acked.status, 200, acked.text);
      assert.deepEqual(acked.body, { ackState: 'ACKNOWLEDGED' });
      assertEtsiValid(`${FM_API}/alarmModifications.schema.json`, acked.body, 'AlarmModifications');
      const newEtag = acked.headers.get('etag');
      assert.ok(newEtag && newEtag !== etag);
      const now = await get<Alarm>(path, a);
      assert.equal(now.body.ackState, 'ACKNOWLEDGED');
      assert.ok(now.body.alarmAcknowledgedTime);
      assert.equal(now.headers.get('etag'), newEtag);

      const again = await send('PATCH', path, a, { ackState: 'ACKNOWLEDGED' });
      assert.ok(isProblem(again, 409));
      assert.match((again.body as { detail: string }).detail, /already ACKNOWLEDGED/);
      const stale = await send('PATCH', path, a, { ackState: 'UNACKNOWLEDGED' }, { 'if-match': etag });
      assert.ok(isProblem(stale, 412));
      assert.equal(
        (await get<Alarm>(path, a)).body.ackState,
        'ACKNOWLEDGED',
        'a refused PATCH changes nothing',
      );
      const unacked = await send('PATCH', path, a, { ackState: 'UNACKNOWLEDGED' }, { 'if-match': newEtag });
      assert.equal(unacked.status, 200);
      assert.equal((await get<Alarm>(path, a)).body.alarmAcknowledgedTime, undefined);
    });

    test('PATCH refuses a bad body (400), a read-only token (403) and another project (404)', async () => {
      const path = `/vnffm/v1/alarms/${ids[3]}`;
      assert.ok(isProblem(await send('PATCH', path, a, { ackState: 'SEEN' }), 400));
      assert.ok(isProblem(await send('PATCH', path, a, { ackState: 'ACKNOWLEDGED', note: 'x' }), 400));
      assert.ok(isProblem(await send('PATCH', path, a, {}), 400));
      assert.equal((await send('PATCH', path, aReadonly, { ackState: 'ACKNOWLEDGED' })).status, 403);
      assert.ok(isProblem(await send('PATCH', path, b, { ackState: 'ACKNOWLEDGED' }), 404));
      assert.equal((await get<Alarm>(path, a)).body.ackState, 'UNACKNOWLEDGED');
      assert.equal((await get(`/vnffm/v1/alarms/${ids[3]}`, aReadonly)).status, 200);
    });

    test('escalate (SOL002): 204 and the more urgent severity; a lower one is 409, another project 404', async () => {
      const path = `/vnffm/v1/alarms/${ids[3]}/escalate`;
      const json = { 'content-type': 'application/json' };
      const r = await send('POST', path, a, { proposedPerceivedSeverity: 'MAJOR' }, json);
      assert.equal(r.status, 204, r.text);
      assert.equal((await get<Alarm>(`/vnffm/v1/alarms/${ids[3]}`, a)).body.perceivedSeverity, 'MAJOR');
      assert.ok(isProblem(await send('POST', path, a, { proposedPerceivedSeverity: 'MINOR' }, json), 409));
      assert.ok(isProblem(await send('POST', path, a, { proposedPerceivedSeverity: 'LOUD' }, json), 400));
      assert.ok(isProblem(await send('POST', path, b, { proposedPerceivedSeverity: 'CRITICAL' }, json), 404));
    });

    test('the alarm list rebuild is for administrators: 403 for a tenant, 200 naming the projects for an admin', async () => {
      const admin = bearer(await tokenOf(server, await addClient(server, ['bosun:admin'], 'ops')));
      const rebuild = (who: Record<string, string>, body: object) =>
        http(server.url, 'POST', '/bosun/v1/alarms/rebuild', { headers: who, body });
      assert.ok(isProblem(await rebuild(a, {}), 403));
      const r = await rebuild(admin, { project: 'tenant-a' });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, { projects: ['tenant-a'], notified: 0 });
      assert.deepEqual((await rebuild(admin, {})).body, { projects: ['tenant-a', 'tenant-b'], notified: 0 });
      assert.ok(isProblem(await rebuild(admin, { project: 7 }), 400));
      const bare = await http(server.url, 'POST', '/bosun/v1/alarms/rebuild', { headers: admin });
      assert.equal(bare.status, 200, `no body: every project (${bare.text})`);
    });

    test('methods SOL does not define answer 405', async () => {
      for (const [method, path] of [
        ['POST', '/vnffm/v1/alarms'],
        ['PUT', '/vnffm/v1/alarms'],
        ['PATCH', '/vnffm/v1/alarms'],
        ['DELETE', '/vnffm/v1/alarms'],
        ['POST', `/vnffm/v1/alarms/${ids[0]}`],
        ['PUT', `/vnffm/v1/alarms/${ids[0]}`],
        ['DELETE', `/vnffm/v1/alarms/${ids[0]}`],
      ] as const) {
        const r = await http(server.url, method, path, { headers: { ...V, ...a } });
        assert.ok(isProblem(r, 405), `${method} ${path}: ${r.status}`);
      }
    });
  });
}
