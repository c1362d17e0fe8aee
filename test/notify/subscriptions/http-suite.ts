/**
 * One suite for every API's subscription resource, over real HTTP on SQLite and PostgreSQL with
 * OAuth 2.0 on (two projects) and a real receiver on loopback: create (201, Location, ETSI
 * representation, authentication sealed and never returned, the callback test), bad requests
 * (400 with a message naming the problem), refused callbacks (422: policy, scheme, credentials,
 * failing callback test, receiver down), duplicates (303, race-free), list filter and paging,
 * project isolation (404) and delete. Each API's test file runs it with its own cases.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { addClient, bearer, tokenOf } from '../../http/auth/oauth2-support.ts';
import { DIALECTS, type TestDialect } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { createTestPki, type TestPki } from '../../support/pki.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { type Receiver, startReceiver } from '../delivery/support.ts';
import { assertEtsiValid, type SchemaPatch } from './etsi-schemas.ts';

export interface SubscriptionCase {
  api: 'vnflcm' | 'vnffm' | 'vnfpm' | 'vnfpkgm';
  major: string;
  /** The Version header the API wants (undefined: optional). */
  version?: string;
  /** ETSI schema of the representation (v2.6.1; v3.3.1 representations are supersets). */
  representationSchema: string;
  /** A correction of that schema where v3.3.1 differs. */
  schemaPatch?: SchemaPatch;
  /** A filter using most of the API's criteria, and a list filter term that selects it. */
  filter: Record<string, unknown>;
  /** A `filter/…` attribute path and a value that the filter of `variant(i)` carries. */
  listAttribute: string;
  variant(i: number): Record<string, unknown>;
  listValue(i: number): string;
  /** Schema-invalid filters and what the 400 must say. */
  badFilters: { filter: unknown; message: RegExp }[];
  /** Whether verbosity is kept (LCM v2), accepted and dropped (FM), or refused. */
  verbosity: 'stored' | 'ignored' | 'refused';
}

interface Subscription {
  id: string;
  callbackUri: string;
  filter?: Record<string, unknown>;
  verbosity?: string;
  _links: { self: { href: string } };
}

type Json = Record<string, unknown>;

const TOKEN = { access_token: 'receiver-token', token_type: 'Bearer', expires_in: 3600 };

/** The receiver: a token endpoint at /token, 500 under /refuse, 204 elsewhere. */
async function receiverForTests(): Promise<Receiver> {
  return startReceiver((r) => {
    if (r.path === '/token') return { status: 200, body: JSON.stringify(TOKEN) };
    if (r.path.startsWith('/refuse')) return { status: 500 };
    return { status: 204 };
  });
}

/** A loopback URL nothing listens on. */
async function deadUrl(): Promise<string> {
  const gone = await startReceiver();
  await gone.close();
  return gone.url;
}

export function subscriptionSuite(title: string, cases: SubscriptionCase[]): void {
  for (const dialect of DIALECTS) suiteOn(title, dialect, cases);
}

function suiteOn(title: string, dialect: TestDialect, cases: SubscriptionCase[]): void {
  describe(`${title} on ${dialect}`, () => {
    let server: TestServer;
    let receiver: Receiver;
    let pki: TestPki;
    let a: Record<string, string>;
    let b: Record<string, string>;
    before(async () => {
      receiver = await receiverForTests();
      pki = createTestPki();
      server = await startTestServer(dialect, {
        config: {
          auth: { mode: 'oauth2' },
          outbound: { allow: ['127.0.0.0/8'] },
          paging: { pageSizes: { subscriptions: 2 } },
          notify: { requestTimeoutMs: 2000 },
        },
      });
      const scopes = cases.map((c) => `${c.api}:${c.major}:all`);
      a = bearer(await tokenOf(server, await addClient(server, scopes, 'tenant-a')));
      b = bearer(await tokenOf(server, await addClient(server, scopes, 'tenant-b')));
    });
    after(async () => {
      await server.close();
      await receiver.close();
      pki.cleanup();
    });

    for (const c of cases) {
      const base = `/${c.api}/${c.major}/subscriptions`;
      const versionHeaders: Record<string, string> = c.version ? { Version: c.version } : {};
      const call = <T = Subscription>(
        method: string,
        path: string,
        who: Record<string, string>,
        body?: unknown,
      ) =>
        http<T>(server.url, method, path, { headers: { ...versionHeaders, ...who }, body: body as object });
      const post = (who: Record<string, string>, body: unknown) => call('POST', base, who, body);
      const detailOf = (res: { body: unknown }) => (res.body as { detail: string }).detail;
      /** POST without following a 303. */
      const rawPost = (who: Record<string, string>, body: unknown) =>
        fetch(server.url + base, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...versionHeaders, ...who, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const stored = (callbackUri: string) =>
        server.context.db.kysely
          .selectFrom('subscriptions')
          .selectAll()
          .where('callback_uri', '=', callbackUri)
          .execute();

      describe(`${c.api} ${c.major}`, () => {
        test('create → 201 with Location; the ETSI representation; show; authentication sealed, never returned', async () => {
          const callbackUri = `${receiver.url}/${c.api}/${c.major}/create`;
          const before = receiver.received.length;
          const created = await post(a, {
            callbackUri,
            filter: c.filter,
            authentication: { authType: ['BASIC'], paramsBasic: { userName: 'nfvo', password: 's3cret-pw' } },
            ...(c.verbosity === 'stored' ? { verbosity: 'SHORT' } : {}),
          });
          assert.equal(created.status, 201, created.text);
          const href = `${server.url}${base}/${created.body.id}`;
          assert.equal(created.headers.get('location'), href);
          assert.equal(created.headers.get('content-type'), 'application/json; charset=utf-8');
          assertEtsiValid(c.representationSchema, created.body, 'created subscription', c.schemaPatch);
          assert.deepEqual(created.body, {
            id: created.body.id,
            filter: c.filter,
            callbackUri,
            ...(c.verbosity === 'stored' ? { verbosity: 'SHORT' } : {}),
            _links: { self: { href } },
          });
          assert.doesNotMatch(created.text, /s3cret-pw|authentication/);

          // The SOL013 callback test ran before storing: a GET with the credentials and the API version.
          const probe = receiver.received.slice(before).find((r) => r.path === `/${c.api}/${c.major}/create`);
          assert.equal(probe?.method, 'GET');
          assert.equal(
            probe?.headers.authorization,
            `Basic ${Buffer.from('nfvo:s3cret-pw').toString('base64')}`,
          );

          const shown = await call('GET', `${base}/${created.body.id}`, a);
          assert.equal(shown.status, 200);
          assert.deepEqual(shown.body, created.body);
          assert.doesNotMatch(shown.text, /s3cret-pw/);

          const [row] = await stored(callbackUri);
          assert.equal(row.project_id, 'tenant-a');
          assert.equal(row.api, c.api);
          assert.equal(row.major, c.major);
          assert.doesNotMatch(row.authentication ?? '', /s3cret-pw/);
          assert.deepEqual(JSON.parse(server.context.box.open(row.authentication ?? '').toString()), {
            authType: ['BASIC'],
            paramsBasic: { userName: 'nfvo', password: 's3cret-pw' },
          });
        });

        test('verbosity', async () => {
          const callbackUri = `${receiver.url}/${c.api}/${c.major}/verbosity`;
          const res = await post(a, { callbackUri, verbosity: 'FULL' });
          if (c.verbosity === 'refused') {
            assert.ok(isProblem(res, 400), res.text);
            assert.match(detailOf(res), /unknown property 'verbosity'/);
            return;
          }
          assert.equal(res.status, 201, res.text);
          const plain = await post(a, { callbackUri: `${callbackUri}/default` });
          if (c.verbosity === 'stored') {
            assert.equal(res.body.verbosity, 'FULL');
            // FULL is the default.
            assert.equal(plain.body.verbosity, 'FULL');
            const bad = await post(a, { callbackUri, verbosity: 'LOUD' });
            assert.ok(isProblem(bad, 400));
            assert.match(detailOf(bad), /verbosity: must be one of FULL, SHORT/);
          } else {
            assert.equal('verbosity' in res.body, false);
            assert.equal('verbosity' in plain.body, false);
          }
        });

        test('authentication: OAuth 2.0 client credentials and TLS certificates', async () => {
          const oauth = await post(a, {
            callbackUri: `${receiver.url}/${c.api}/${c.major}/oauth`,
            authentication: {
              authType: ['OAUTH2_CLIENT_CREDENTIALS'],
              paramsOauth2ClientCredentials: {
                clientId: 'bosun',
                clientPassword: 'token-pw',
                tokenEndpoint: `${receiver.url}/token`,
              },
            },
          });
          assert.equal(oauth.status, 201, oauth.text);
          const probe = receiver.received.filter((r) => r.path === `/${c.api}/${c.major}/oauth`).at(-1);
          assert.equal(probe?.headers.authorization, `Bearer ${TOKEN.access_token}`);
          assert.doesNotMatch(oauth.text, /token-pw/);

          const certificate = pki.signer.certPem;
          const privateKey = readFileSync(pki.signer.keyFile, 'utf8');
          const tls = await post(a, {
            callbackUri: `${receiver.url}/${c.api}/${c.major}/tls`,
            authentication: {
              authType: ['TLS_CERT'],
              paramsTlsCert: { certificate, privateKey, caCertificate: pki.caPem },
            },
          });
          assert.equal(tls.status, 201, tls.text);
          assert.doesNotMatch(tls.text, /PRIVATE KEY|CERTIFICATE/);
          const [row] = await stored(`${receiver.url}/${c.api}/${c.major}/tls`);
          assert.doesNotMatch(row.authentication ?? '', /PRIVATE KEY/);

          // OAUTH2_CLIENT_CERT: the certificate comes in paramsTlsCert; its reference must be its thumbprint.
          const thumbprint = createHash('sha256')
            .update(Buffer.from(certificate.replace(/-----[^-]+-----|\s/g, ''), 'base64'))
            .digest('base64url');
          const clientCert = (value: string) => ({
            callbackUri: `${receiver.url}/${c.api}/${c.major}/oauth-cert/${value.slice(0, 6)}`,
            authentication: {
              authType: ['OAUTH2_CLIENT_CERT'],
              paramsOauth2ClientCert: {
                clientId: 'bosun',
                certificateRef: { type: 'x5t#S256', value },
                tokenEndpoint: `${receiver.url}/token`,
              },
              paramsTlsCert: { certificate, privateKey },
            },
          });
          const wrongRef = await post(a, clientCert('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'));
          assert.ok(isProblem(wrongRef, 400), wrongRef.text);
          assert.match(detailOf(wrongRef), /certificateRef \(x5t#S256\) is not the thumbprint/);
          const rightRef = await post(a, clientCert(thumbprint));
          assert.equal(rightRef.status, 201, rightRef.text);
        });

        test('bad bodies → 400 naming the problem; nothing stored', async () => {
          const callbackUri = `${receiver.url}/${c.api}/${c.major}/bad`;
          const expect400 = async (body: unknown, message: RegExp) => {
            const res = await post(a, body);
            assert.ok(isProblem(res, 400), `${JSON.stringify(body)} → ${res.status} ${res.text}`);
            assert.match(detailOf(res), message);
          };
          await expect400({}, /missing required property 'callbackUri'/);
          await expect400({ callbackUri, colour: 'blue' }, /unknown property 'colour'/);
          await expect400({ callbackUri: 'not a uri' }, /callbackUri "not a uri" is not an absolute URI/);
          await expect400({ callbackUri: '/relative/path' }, /not an absolute URI/);
          for (const bad of c.badFilters) await expect400({ callbackUri, filter: bad.filter }, bad.message);
          await expect400(
            { callbackUri, authentication: { authType: ['BASIC'] } },
            /BASIC needs paramsBasic with userName, password/,
          );
          await expect400(
            {
              callbackUri,
              authentication: {
                authType: ['OAUTH2_CLIENT_CREDENTIALS'],
                paramsOauth2ClientCredentials: { clientId: 'x' },
              },
            },
            /OAUTH2_CLIENT_CREDENTIALS needs paramsOauth2ClientCredentials with clientPassword, tokenEndpoint/,
          );
          await expect400(
            { callbackUri, authentication: { authType: ['TLS_CERT'] } },
            /TLS_CERT needs paramsTlsCert with certificate, privateKey/,
          );
          await expect400(
            {
              callbackUri,
              authentication: {
                authType: ['TLS_CERT'],
                paramsTlsCert: { certificate: 'nope', privateKey: 'nope' },
              },
            },
            /paramsTlsCert.certificate is not a PEM X.509 certificate/,
          );
          await expect400(
            {
              callbackUri,
              authentication: {
                authType: ['OAUTH2_CLIENT_CERT'],
                paramsOauth2ClientCert: {
                  clientId: 'x',
                  certificateRef: { type: 'x5t#S256', value: 'v' },
                  tokenEndpoint: `${receiver.url}/token`,
                },
              },
            },
            /OAUTH2_CLIENT_CERT needs paramsTlsCert with certificate, privateKey/,
          );
          await expect400(
            {
              callbackUri,
              authentication: {
                authType: ['BASIC'],
                paramsBasic: { userName: 'u', password: 'p' },
                paramsOauth2ClientCredentials: {},
              },
            },
            /paramsOauth2ClientCredentials is given but authType does not list OAUTH2_CLIENT_CREDENTIALS/,
          );
          await expect400(
            { callbackUri, authentication: { authType: ['KERBEROS'] } },
            /authType.0: must be one of/,
          );
          assert.deepEqual(await stored(callbackUri), []);
        });

        test('refused callbacks → 422 with the reason; nothing stored', async () => {
          const expect422 = async (callbackUri: string, message: RegExp, extra: Json = {}) => {
            const res = await post(a, { callbackUri, ...extra });
            assert.ok(isProblem(res, 422), `${callbackUri} → ${res.status} ${res.text}`);
            assert.match(detailOf(res), message);
            assert.deepEqual(await stored(callbackUri), []);
          };
          await expect422('http://10.1.2.3/cb', /10\.1\.2\.3.*private.*outbound\.allow/);
          await expect422('http://169.254.169.254/latest', /link-local/);
          await expect422(`ftp://127.0.0.1/${c.api}`, /must be an http or https URI, not ftp/);
          await expect422(`http://user:pw@127.0.0.1/${c.api}`, /must not carry credentials/);
          // The callback test: the receiver answers 500, or nothing listens.
          await expect422(`${receiver.url}/refuse/${c.api}/${c.major}`, /callback test failed.*500/);
          await expect422(`${await deadUrl()}/${c.api}`, /callback test failed/);
          // A token endpoint Bosun may not call.
          await expect422(
            `${receiver.url}/${c.api}/${c.major}/token-refused`,
            /tokenEndpoint refused.*10\.9\.9\.9/,
            {
              authentication: {
                authType: ['OAUTH2_CLIENT_CREDENTIALS'],
                paramsOauth2ClientCredentials: {
                  clientId: 'x',
                  clientPassword: 'y',
                  tokenEndpoint: 'http://10.9.9.9/token',
                },
              },
            },
          );
        });

        test('a duplicate (same callback and filter, same project) → 303 to the existing one, also under a race', async () => {
          const callbackUri = `${receiver.url}/${c.api}/${c.major}/dup`;
          const first = await post(a, { callbackUri, filter: c.filter });
          assert.equal(first.status, 201, first.text);
          const existing = `${server.url}${base}/${first.body.id}`;
          // The same filter with its keys in reverse order.
          const reversed = Object.fromEntries(Object.entries(c.filter).reverse());
          const again = await rawPost(a, { filter: reversed, callbackUri });
          assert.equal(again.status, 303);
          assert.equal(again.headers.get('location'), existing);
          // Another filter, or another project: a new subscription.
          assert.equal((await post(a, { callbackUri })).status, 201);
          const otherProject = await post(b, { callbackUri, filter: c.filter });
          assert.equal(otherProject.status, 201);
          assert.notEqual(otherProject.body.id, first.body.id);

          // Eight identical creations at once: exactly one is stored, the others see it.
          const raceUri = `${receiver.url}/${c.api}/${c.major}/race`;
          const answers = await Promise.all(
            Array.from({ length: 8 }, () => rawPost(a, { callbackUri: raceUri })),
          );
          const statuses = answers.map((r) => r.status).sort();
          assert.deepEqual(statuses, [201, 303, 303, 303, 303, 303, 303, 303]);
          const rows = await stored(raceUri);
          assert.equal(rows.length, 1);
          for (const answer of answers) {
            assert.equal(answer.headers.get('location'), `${server.url}${base}/${rows[0].id}`);
          }
        });

        test('list: filter on the subscription and its filter, paging by Link; project isolation; delete', async () => {
          const ids: string[] = [];
          for (let i = 0; i < 3; i++) {
            const res = await post(b, {
              callbackUri: `${receiver.url}/${c.api}/${c.major}/list/${i}`,
              filter: c.variant(i),
            });
            assert.equal(res.status, 201, res.text);
            ids.push(res.body.id);
          }
          const seen: Subscription[] = [];
          let next: string | undefined = base;
          let pages = 0;
          while (next) {
            const page: Awaited<ReturnType<typeof call<Subscription[]>>> = await call<Subscription[]>(
              'GET',
              next,
              b,
            );
            pages++;
            assert.equal(page.status, 200, page.text);
            assert.ok(page.body.length <= 2);
            for (const item of page.body)
              assertEtsiValid(c.representationSchema, item, 'listed subscription', c.schemaPatch);
            seen.push(...page.body);
            const link = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
            next = link ? new URL(link).pathname + new URL(link).search : undefined;
          }
          assert.ok(pages >= 2, `${pages} page(s)`);
          const own = await server.context.db.kysely
            .selectFrom('subscriptions')
            .select('id')
            .where('project_id', '=', 'tenant-b')
            .where('api', '=', c.api)
            .where('major', '=', c.major)
            .execute();
          assert.deepEqual(seen.map((s) => s.id).sort(), own.map((r) => r.id).sort());

          const byFilter = await call<Subscription[]>(
            'GET',
            `${base}?filter=${encodeURIComponent(`(eq,${c.listAttribute},${c.listValue(1)})`)}`,
            b,
          );
          assert.equal(byFilter.status, 200, byFilter.text);
          assert.deepEqual(
            byFilter.body.map((s) => s.id),
            [ids[1]],
          );
          const byCallback = await call<Subscription[]>(
            'GET',
            `${base}?filter=${encodeURIComponent(`(eq,callbackUri,${receiver.url}/${c.api}/${c.major}/list/2)`)}`,
            b,
          );
          assert.deepEqual(
            byCallback.body.map((s) => s.id),
            [ids[2]],
          );
          if (c.verbosity === 'stored') {
            const full = await call<Subscription[]>('GET', `${base}?filter=(eq,verbosity,FULL)`, b);
            assert.equal(full.body.length, 2);
            assert.ok(full.body.every((s) => s.verbosity === 'FULL'));
            const short = await call<Subscription[]>('GET', `${base}?filter=(eq,verbosity,SHORT)`, a);
            assert.ok(short.body.length > 0 && short.body.every((s) => s.verbosity === 'SHORT'));
          }
          const unknown = await call('GET', `${base}?filter=${encodeURIComponent('(eq,filter/nope,1)')}`, b);
          assert.ok(isProblem(unknown, 400));
          assert.match(detailOf(unknown), /unknown attribute 'filter\/nope'/);
          assert.ok(isProblem(await call('GET', `${base}?all_fields`, b), 400));

          // Another project: 404 on show and delete, absent from its list.
          assert.ok(isProblem(await call('GET', `${base}/${ids[0]}`, a), 404));
          assert.ok(isProblem(await call('DELETE', `${base}/${ids[0]}`, a), 404));
          const listA = await call<Subscription[]>('GET', base, a);
          assert.ok(!listA.body.some((s) => ids.includes(s.id)));

          const deleted = await call('DELETE', `${base}/${ids[0]}`, b);
          assert.equal(deleted.status, 204);
          assert.ok(isProblem(await call('GET', `${base}/${ids[0]}`, b), 404));
          assert.ok(isProblem(await call('DELETE', `${base}/${ids[0]}`, b), 404));
          assert.ok(isProblem(await call('GET', `${base}/not-a-subscription`, b), 404));
        });
      });
    }

    test('the Version header rules of each API apply', async () => {
      for (const c of cases.filter((x) => x.version)) {
        const res = await http(server.url, 'GET', `/${c.api}/${c.major}/subscriptions`, { headers: a });
        assert.ok(isProblem(res, 400), `${c.api} ${c.major} without Version: ${res.status}`);
        const ok = await http(server.url, 'GET', `/${c.api}/${c.major}/subscriptions`, {
          headers: { ...a, Version: c.version ?? '' },
        });
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get('version'), c.version);
      }
    });
  });

  describe(`${title} with subscriptions.duplicates: allow on ${dialect}`, () => {
    let server: TestServer;
    let receiver: Receiver;
    before(async () => {
      receiver = await receiverForTests();
      server = await startTestServer(dialect, {
        config: { outbound: { allow: ['127.0.0.0/8'] }, subscriptions: { duplicates: 'allow' } },
      });
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    test('identical subscriptions are stored side by side', async () => {
      for (const c of cases) {
        const headers: Record<string, string> = c.version ? { Version: c.version } : {};
        const body = { callbackUri: `${receiver.url}/${c.api}/${c.major}/allowed`, filter: c.filter };
        const first = await http<Subscription>(server.url, 'POST', `/${c.api}/${c.major}/subscriptions`, {
          headers,
          body,
        });
        const second = await http<Subscription>(server.url, 'POST', `/${c.api}/${c.major}/subscriptions`, {
          headers,
          body,
        });
        assert.equal(first.status, 201, first.text);
        assert.equal(second.status, 201, second.text);
        assert.notEqual(first.body.id, second.body.id);
      }
    });
  });
}
