/**
 * /vnfpkgm/v1/subscriptions and /vnfpkgm/v2/subscriptions over real HTTP on both databases:
 * create, duplicates (303), callback URI checks (outbound policy), list with filter and paging,
 * show, delete, authentication sealed and never returned, project isolation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Receiver, startReceiver } from '../../notify/delivery/support.ts';
import { assertEtsiValid, PKGM } from '../../notify/subscriptions/etsi-schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { addClient, bearer, tokenOf } from '../auth/oauth2-support.ts';

interface Subscription {
  id: string;
  callbackUri: string;
  filter?: Record<string, unknown>;
  _links: { self: { href: string } };
  [key: string]: unknown;
}

const MAJORS = [
  { major: 'v1', headers: {} as Record<string, string> },
  { major: 'v2', headers: { Version: '2.1.0' } as Record<string, string> },
];

for (const dialect of DIALECTS) {
  describe(`vnfpkgm subscriptions on ${dialect}`, () => {
    let server: TestServer;
    let receiver: Receiver;
    let a: Record<string, string>;
    let b: Record<string, string>;
    before(async () => {
      receiver = await startReceiver();
      server = await startTestServer(dialect, {
        config: {
          auth: { mode: 'oauth2' },
          outbound: { allow: ['127.0.0.0/8'] },
          paging: { pageSizes: { subscriptions: 2 } },
        },
      });
      const scopes = ['vnfpkgm:v1:all', 'vnfpkgm:v2:all'];
      a = bearer(await tokenOf(server, await addClient(server, scopes, 'tenant-a')));
      b = bearer(await tokenOf(server, await addClient(server, scopes, 'tenant-b')));
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    for (const { major, headers } of MAJORS) {
      const base = `/vnfpkgm/${major}/subscriptions`;
      const call = (method: string, path: string, who: Record<string, string>, body?: object) =>
        http<Subscription & Subscription[]>(server.url, method, path, {
          headers: { ...headers, ...who },
          body,
        });

      test(`${major}: create → 201 with Location; show; authentication sealed, never returned`, async () => {
        const filter = {
          notificationTypes: ['VnfPackageOnboardingNotification'],
          vnfProductsFromProviders: [
            {
              vnfProvider: 'Bosun',
              vnfProducts: [
                {
                  vnfProductName: 'Single',
                  versions: [{ vnfSoftwareVersion: '1.0', vnfdVersions: ['1.0'] }],
                },
              ],
            },
          ],
        };
        const created = await call('POST', base, a, {
          callbackUri: `${receiver.url}/${major}/create`,
          filter,
          authentication: { authType: ['BASIC'], paramsBasic: { userName: 'u', password: 's3cret-pw' } },
        });
        assert.equal(created.status, 201, created.text);
        assert.equal(created.headers.get('location'), `${server.url}${base}/${created.body.id}`);
        assert.equal(created.body._links.self.href, `${server.url}${base}/${created.body.id}`);
        assert.equal(created.body.callbackUri, `${receiver.url}/${major}/create`);
        assert.deepEqual(created.body.filter, filter);
        assertEtsiValid(`${PKGM}/PkgmSubscription.schema.json`, created.body, 'PkgmSubscription');
        assert.equal('authentication' in created.body, false);
        assert.doesNotMatch(created.text, /s3cret-pw/);

        const shown = await call('GET', `${base}/${created.body.id}`, a);
        assert.equal(shown.status, 200);
        assert.deepEqual(shown.body, created.body);

        // Stored sealed: the database does not hold the password in clear.
        const row = await server.context.db.kysely
          .selectFrom('subscriptions')
          .selectAll()
          .where('id', '=', created.body.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.project_id, 'tenant-a');
        assert.equal(row.api, 'vnfpkgm');
        assert.equal(row.major, major);
        assert.ok(row.authentication?.startsWith('v1.'));
        assert.doesNotMatch(row.authentication ?? '', /s3cret-pw/);
        assert.deepEqual(JSON.parse(server.context.box.open(row.authentication ?? '').toString()), {
          authType: ['BASIC'],
          paramsBasic: { userName: 'u', password: 's3cret-pw' },
        });
      });

      test(`${major}: a duplicate (same callback, same filter, same project) → 303 to the existing one`, async () => {
        const body = {
          callbackUri: `${receiver.url}/${major}/dup`,
          filter: { vnfdId: ['x'], operationalState: ['ENABLED'] },
        };
        const first = await call('POST', base, a, body);
        assert.equal(first.status, 201);
        // Same filter with its keys in another order: still a duplicate.
        // fetch must not follow the 303, to see it.
        const again = await fetch(server.url + base, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...headers, ...a, 'content-type': 'application/json' },
          body: JSON.stringify({
            filter: { operationalState: ['ENABLED'], vnfdId: ['x'] },
            callbackUri: body.callbackUri,
          }),
        });
        assert.equal(again.status, 303);
        assert.equal(again.headers.get('location'), `${server.url}${base}/${first.body.id}`);
        // Another filter, or another project: a new subscription.
        const otherFilter = await call('POST', base, a, { ...body, filter: { vnfdId: ['y'] } });
        assert.equal(otherFilter.status, 201);
        const otherProject = await call('POST', base, b, body);
        assert.equal(otherProject.status, 201);
        assert.notEqual(otherProject.body.id, first.body.id);
      });

      test(`${major}: callback URIs: private refused (422), malformed (400), non-http (422)`, async () => {
        const refused = await call('POST', base, a, { callbackUri: 'http://10.1.2.3/cb' });
        assert.ok(isProblem(refused, 422), refused.text);
        assert.match(
          (refused.body as unknown as { detail: string }).detail,
          /10\.1\.2\.3.*private.*outbound\.allow/,
        );
        const linkLocal = await call('POST', base, a, { callbackUri: 'http://169.254.169.254/latest' });
        assert.ok(isProblem(linkLocal, 422));
        assert.ok(isProblem(await call('POST', base, a, { callbackUri: 'not a uri' }), 400));
        assert.ok(isProblem(await call('POST', base, a, { callbackUri: '/relative/path' }), 400));
        assert.ok(isProblem(await call('POST', base, a, { callbackUri: 'ftp://127.0.0.1/cb' }), 422));
        assert.ok(isProblem(await call('POST', base, a, {}), 400));
        assert.ok(
          isProblem(
            await call('POST', base, a, {
              callbackUri: 'http://127.0.0.1:9/cb',
              filter: { usageState: ['BUSY'] },
            }),
            400,
          ),
        );
        assert.ok(
          isProblem(
            await call('POST', base, a, {
              callbackUri: 'http://127.0.0.1:9/cb',
              authentication: { authType: ['BASIC'] },
            }),
            400,
          ),
        );
        // Nothing stored by the refused requests.
        const stored = await server.context.db.kysely
          .selectFrom('subscriptions')
          .select('callback_uri')
          .where('callback_uri', 'in', ['http://10.1.2.3/cb', 'http://127.0.0.1:9/cb'])
          .execute();
        assert.deepEqual(stored, []);
      });

      test(`${major}: list with filter and paging; project isolation; delete`, async () => {
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await call('POST', base, b, {
            callbackUri: `${receiver.url}/${major}/list/${i}`,
            filter: { vnfPkgId: [`pkg-${i}`] },
          });
          assert.equal(res.status, 201);
          ids.push(res.body.id);
        }
        // Pages of 2, following the Link header.
        const seen: Subscription[] = [];
        let next: string | undefined = base;
        let pages = 0;
        while (next) {
          const page: Awaited<ReturnType<typeof http<Subscription[]>>> = await http<Subscription[]>(
            server.url,
            'GET',
            next,
            { headers: { ...headers, ...b } },
          );
          pages++;
          assert.equal(page.status, 200);
          assert.ok(page.body.length <= 2);
          seen.push(...page.body);
          const link = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
          next = link ? new URL(link).pathname + new URL(link).search : undefined;
        }
        assert.ok(pages >= 2, `${pages} page(s)`);
        for (const id of ids) assert.ok(seen.some((s) => s.id === id));
        // Project b sees only its own subscriptions.
        const rows = await server.context.db.kysely
          .selectFrom('subscriptions')
          .select('id')
          .where('project_id', '=', 'tenant-b')
          .where('major', '=', major)
          .execute();
        assert.deepEqual(seen.map((s) => s.id).sort(), rows.map((r) => r.id).sort());

        const filtered = await call(
          'GET',
          `${base}?filter=${encodeURIComponent('(eq,filter/vnfPkgId,pkg-1)')}`,
          b,
        );
        assert.equal(filtered.status, 200);
        assert.deepEqual(
          filtered.body.map((s) => s.id),
          [ids[1]],
        );
        const byCallback = await call(
          'GET',
          `${base}?filter=${encodeURIComponent(`(eq,callbackUri,${receiver.url}/${major}/list/2)`)}`,
          b,
        );
        assert.deepEqual(
          byCallback.body.map((s) => s.id),
          [ids[2]],
        );
        assert.ok(
          isProblem(await call('GET', `${base}?filter=${encodeURIComponent('(eq,nope,1)')}`, b), 400),
        );

        // Another project: 404 on show and delete, absent from its list.
        assert.ok(isProblem(await call('GET', `${base}/${ids[0]}`, a), 404));
        assert.ok(isProblem(await call('DELETE', `${base}/${ids[0]}`, a), 404));
        const listA = await call('GET', base, a);
        assert.ok(!listA.body.some((s) => ids.includes(s.id)));

        // The other major's resource does not know it either.
        const otherBase = major === 'v1' ? '/vnfpkgm/v2/subscriptions' : '/vnfpkgm/v1/subscriptions';
        const otherHeaders: Record<string, string> = major === 'v1' ? { Version: '2.1.0' } : {};
        const crossMajor = await http(server.url, 'GET', `${otherBase}/${ids[0]}`, {
          headers: { ...otherHeaders, ...b },
        });
        assert.ok(isProblem(crossMajor, 404));

        const deleted = await call('DELETE', `${base}/${ids[0]}`, b);
        assert.equal(deleted.status, 204);
        assert.ok(isProblem(await call('GET', `${base}/${ids[0]}`, b), 404));
        assert.ok(isProblem(await call('DELETE', `${base}/${ids[0]}`, b), 404));
        assert.ok(isProblem(await call('GET', `${base}/not-a-subscription`, b), 404));
      });
    }
  });

  describe(`vnfpkgm subscriptions with the default outbound policy on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect);
    });
    after(() => server.close());

    test('loopback callbacks are refused unless outbound.allow lists them', async () => {
      const res = await http<{ detail: string }>(server.url, 'POST', '/vnfpkgm/v1/subscriptions', {
        body: { callbackUri: 'http://127.0.0.1:9/cb' },
      });
      assert.ok(isProblem(res, 422), res.text);
      assert.match(res.body.detail, /127\.0\.0\.1.*loopback/);
    });
  });
}
