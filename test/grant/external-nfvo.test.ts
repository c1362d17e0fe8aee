/**
 * The external NFVO over real HTTP on loopback (SOL003 §9): a Grant answered at once (201) and
 * one decided later (202, its Location polled after Retry-After), a refusal (403 with the NFVO's
 * detail), a silent NFVO and a grant never decided (timeouts naming the NFVO and the call), 5xx,
 * answers that are not a usable Grant, OAuth 2.0 client credentials (a token fetched once, fetched
 * again once when the NFVO refuses it), Basic, and mutual TLS with certificates made for the test (also
 * for the token, RFC 8705); package downloads with the same credentials, bounded; and the
 * configuration that cannot work, refused at start.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import { ConfigError } from '../../src/config/errors.ts';
import { type Config, loadConfig } from '../../src/config/load.ts';
import { maskSecrets } from '../../src/config/mask.ts';
import { createNfvo } from '../../src/grant/create-nfvo.ts';
import { retryAfterMs } from '../../src/grant/external-nfvo.ts';
import { type GrantContext, GrantRefused, NfvoUnavailable } from '../../src/grant/nfvo.ts';
import type { GrantRequest } from '../../src/grant/types.ts';
import { SealedBox } from '../../src/security/sealed-box.ts';
import { createTlsPki, type TlsPki } from '../notify/delivery/tls-pki.ts';
import { tempDir } from '../support/temp.ts';
import { type Answer, type FakeNfvo, grantFor, startFakeNfvo } from './fake-nfvo.ts';

const box = new SealedBox(randomBytes(32));

function config(nfvo: Record<string, unknown>): Config {
  return loadConfig({
    env: {},
    overrides: {
      outbound: { allow: ['127.0.0.1'] },
      nfvo: { mode: 'external', ...nfvo },
    },
  });
}

function nfvoAt(url: string, external: Record<string, unknown> = {}) {
  return createNfvo(config({ external: { apiRoot: url, pollIntervalMs: 20, ...external } }), box);
}

function grantRequest(): GrantRequest {
  const opOcc = randomUUID();
  return {
    vnfInstanceId: randomUUID(),
    vnfLcmOpOccId: opOcc,
    vnfdId: 'vnfd-1',
    flavourId: 'simple',
    operation: 'INSTANTIATE',
    isAutomaticInvocation: false,
    addResources: [
      { id: 'c1', type: 'COMPUTE', resourceTemplateId: 'VDU1', vduId: 'VDU1' },
      { id: 'c2', type: 'COMPUTE', resourceTemplateId: 'VDU1', vduId: 'VDU1' },
    ],
    _links: { vnfLcmOpOcc: { href: `/op/${opOcc}` }, vnfInstance: { href: '/vnf' } },
  };
}

const context = { grantsPath: '/grant/v1/grants' } as GrantContext;

describe('external NFVO: a grant answered at once (201)', () => {
  let nfvo: FakeNfvo;
  before(async () => {
    nfvo = await startFakeNfvo((req) => ({
      status: 201,
      headers: { location: `/grant/v1/grants/g-${req.method}` },
      body: grantFor(req.json as Record<string, unknown>, {
        zone: 'zone-b',
        flavours: { VDU1: 'm1.large' },
        images: { VDU1: 'image-7' },
        vimConnectionInfo: {
          vim1: {
            vimId: 'vim-1',
            vimType: 'ETSINFV.OPENSTACK_KEYSTONE.V_3',
            interfaceInfo: { endpoint: 'https://keystone' },
            accessInfo: { username: 'u', password: 'hunter2' },
          },
        },
      }),
    }));
  });
  after(() => nfvo.close());

  test('POSTs the GrantRequest with the Version header and returns the Grant with its zones and assets', async () => {
    const setup = nfvoAt(nfvo.url);
    const request = grantRequest();
    const grant = await setup.nfvo.grant(request, context);
    setup.close();
    const [call] = nfvo.calls();
    assert.equal(call.method, 'POST');
    assert.equal(call.path, '/grant/v1/grants');
    assert.equal(call.headers.version, '1.4.0');
    assert.equal(call.headers['content-type'], 'application/json');
    assert.deepEqual(call.json, request);
    assert.deepEqual(grant.zones, [{ id: 'nfvo-zone-1', zoneId: 'zone-b' }]);
    assert.deepEqual(
      grant.addResources?.map((r) => r.zoneId),
      ['nfvo-zone-1', 'nfvo-zone-1'],
    );
    assert.deepEqual(grant.vimAssets?.computeResourceFlavours, [
      { vnfdVirtualComputeDescId: 'VDU1', vimFlavourId: 'm1.large' },
    ]);
    assert.deepEqual(grant.vimAssets?.softwareImages, [
      { vnfdSoftwareImageId: 'VDU1', vimSoftwareImageId: 'image-7' },
    ]);
    assert.equal(grant._links.self.href, `${nfvo.url}/grant/v1/grants/g-POST`);
    assert.equal(grant._links.vnfLcmOpOcc.href, request._links.vnfLcmOpOcc.href);
  });

  test("the grant's VIM credentials are sealed, never kept in clear", async () => {
    const setup = nfvoAt(nfvo.url);
    const grant = await setup.nfvo.grant(grantRequest(), context);
    setup.close();
    const vim = grant.vimConnectionInfo?.vim1;
    assert.equal(vim?.vimId, 'vim-1');
    assert.ok(!JSON.stringify(grant).includes('hunter2'));
    assert.deepEqual(JSON.parse(box.open(vim?.sealedAccessInfo as string).toString('utf8')), {
      username: 'u',
      password: 'hunter2',
    });
  });
});

describe('external NFVO: a grant decided later (202 and polling)', () => {
  let nfvo: FakeNfvo;
  let polls = 0;
  before(async () => {
    nfvo = await startFakeNfvo((req): Answer => {
      if (req.method === 'POST') {
        return { status: 202, headers: { location: '/grant/v1/grants/later', 'retry-after': '0' } };
      }
      polls++;
      if (polls < 3) return { status: 202, headers: { 'retry-after': '0' } };
      const post = nfvo.calls().find((r) => r.method === 'POST');
      return { status: 200, body: grantFor(post?.json as Record<string, unknown>, { zone: 'zone-a' }) };
    });
  });
  after(() => nfvo.close());

  test('polls the Location until the NFVO answers the Grant', async () => {
    const setup = nfvoAt(nfvo.url);
    const grant = await setup.nfvo.grant(grantRequest(), context);
    setup.close();
    const gets = nfvo.calls().filter((r) => r.method === 'GET');
    assert.equal(gets.length, 3);
    assert.ok(gets.every((g) => g.path === '/grant/v1/grants/later' && g.headers.version === '1.4.0'));
    assert.deepEqual(grant.zones, [{ id: 'nfvo-zone-1', zoneId: 'zone-a' }]);
    assert.equal(grant._links.self.href, `${nfvo.url}/grant/v1/grants/later`);
  });
});

describe('external NFVO: refusals and failures', () => {
  let nfvo: FakeNfvo;
  before(async () => {
    nfvo = await startFakeNfvo(() => ({ status: 500 }));
  });
  after(() => nfvo.close());

  const grantWith = async (answer: Parameters<typeof startFakeNfvo>[0], external = {}) => {
    nfvo.handle = answer;
    const setup = nfvoAt(nfvo.url, external);
    try {
      return await setup.nfvo.grant(grantRequest(), context);
    } finally {
      setup.close();
    }
  };

  test("403 is a refusal carrying the NFVO's detail", async () => {
    await assert.rejects(
      grantWith(() => ({
        status: 403,
        body: { status: 403, title: 'Forbidden', detail: 'Quota of tenant t1 exceeded\n(vCPU)' },
      })),
      (err: Error) =>
        err instanceof GrantRefused && err.message === `NFVO ${nfvo.url}: Quota of tenant t1 exceeded (vCPU)`,
    );
  });

  test('403 while polling is a refusal too', async () => {
    await assert.rejects(
      grantWith((req) =>
        req.method === 'POST'
          ? { status: 202, headers: { location: '/grant/v1/grants/p' } }
          : { status: 403, body: { detail: 'no capacity in any zone' } },
      ),
      (err: Error) => err instanceof GrantRefused && err.message.endsWith('no capacity in any zone'),
    );
  });

  test('5xx is NfvoUnavailable naming the NFVO, the call and its detail', async () => {
    await assert.rejects(
      grantWith(() => ({ status: 503, body: { detail: 'maintenance' } })),
      (err: Error) =>
        err instanceof NfvoUnavailable &&
        err.status === 502 &&
        err.message === `NFVO call POST ${nfvo.url}/grant/v1/grants answered HTTP 503: maintenance`,
    );
  });

  test('a silent NFVO fails the call after timeoutMs, naming it', async () => {
    await assert.rejects(
      grantWith(() => ({ status: 0, hang: true }), { timeoutMs: 200 }),
      (err: Error) =>
        err instanceof NfvoUnavailable &&
        err.status === 504 &&
        err.message.startsWith(`NFVO call POST ${nfvo.url}/grant/v1/grants failed:`) &&
        err.message.includes('did not answer within 200 ms'),
    );
  });

  test('a grant never decided fails after grantTimeoutMs', async () => {
    await assert.rejects(
      grantWith(() => ({ status: 202, headers: { location: '/grant/v1/grants/never' } }), {
        grantTimeoutMs: 300,
      }),
      (err: Error) =>
        err instanceof NfvoUnavailable &&
        err.status === 504 &&
        err.message.includes('did not decide the grant within 300 ms') &&
        err.message.includes('/grant/v1/grants/never'),
    );
  });

  test('202 without a Location cannot be followed', async () => {
    await assert.rejects(
      grantWith(() => ({ status: 202 })),
      (err: Error) => err instanceof NfvoUnavailable && err.message.includes('without a Location'),
    );
  });

  test('a Location on another origin is not followed (the credentials stay with the NFVO)', async () => {
    await assert.rejects(
      grantWith(() => ({ status: 202, headers: { location: 'http://127.0.0.2:1/grant' } })),
      (err: Error) => err instanceof NfvoUnavailable && err.message.includes('another origin'),
    );
  });

  test('an answer that is not a Grant is named with what is wrong', async () => {
    await assert.rejects(
      grantWith(() => ({ status: 201, body: { id: 'g1', vnfInstanceId: 'x' } })),
      (err: Error) =>
        err instanceof NfvoUnavailable &&
        /answered|is not a Grant/.test(err.message) &&
        err.message.includes('vnfLcmOpOccId'),
    );
  });

  test('a Grant for another operation, or placing a resource in an unknown zone, is refused', async () => {
    await assert.rejects(
      grantWith((req) => ({
        status: 201,
        body: { ...grantFor(req.json as Record<string, unknown>), vnfLcmOpOccId: 'other' },
      })),
      (err: Error) => err instanceof NfvoUnavailable && err.message.includes('operation occurrence other'),
    );
    await assert.rejects(
      grantWith((req) => {
        const g = grantFor(req.json as Record<string, unknown>, { zone: 'zone-a' });
        return { status: 201, body: { ...g, zones: [] } };
      }),
      (err: Error) => err instanceof NfvoUnavailable && err.message.includes('not among its zones'),
    );
  });

  test('a Grant approving only some of the resources to add is a refusal naming them', async () => {
    await assert.rejects(
      grantWith((req) => {
        const g = grantFor(req.json as Record<string, unknown>);
        return { status: 201, body: { ...g, addResources: g.addResources.slice(0, 1) } };
      }),
      (err: Error) =>
        err instanceof GrantRefused && /approves 1 of the 2 resources to add \(not c2\)$/.test(err.message),
    );
  });

  test('an answer larger than maxResponseBytes is not read', async () => {
    await assert.rejects(
      grantWith(
        (req) => ({
          status: 201,
          body: {
            ...grantFor(req.json as Record<string, unknown>),
            additionalParams: { pad: 'x'.repeat(20000) },
          },
        }),
        { maxResponseBytes: 8192 },
      ),
      (err: Error) => err instanceof NfvoUnavailable && err.message.includes('more than 8192 bytes'),
    );
  });

  test('an NFVO on a private address needs outbound.allow', async () => {
    const setup = createNfvo(
      loadConfig({ env: {}, overrides: { nfvo: { mode: 'external', external: { apiRoot: nfvo.url } } } }),
      box,
    );
    await assert.rejects(
      setup.nfvo.grant(grantRequest(), context),
      (err: Error) => err instanceof NfvoUnavailable && err.message.includes('outbound.allow'),
    );
    setup.close();
  });
});

describe('external NFVO: OAuth 2.0 client credentials', () => {
  let nfvo: FakeNfvo;
  const client = { id: 'bosun-vnfm', secret: 's3cret:&=' };
  before(async () => {
    nfvo = await startFakeNfvo(
      (req) => ({ status: 201, body: grantFor(req.json as Record<string, unknown>) }),
      {
        client,
      },
    );
  });
  after(() => nfvo.close());

  const oauth = () => ({
    auth: {
      type: 'oauth2',
      tokenEndpoint: `${nfvo.url}/token`,
      clientId: client.id,
      clientSecret: client.secret,
    },
  });

  test('a token is fetched once and reused, and fetched again once when the NFVO refuses it', async () => {
    const setup = nfvoAt(nfvo.url, oauth());
    await setup.nfvo.grant(grantRequest(), context);
    await setup.nfvo.grant(grantRequest(), context);
    assert.equal(nfvo.tokenRequests().length, 1);
    assert.deepEqual(
      nfvo.calls().map((c) => c.headers.authorization),
      ['Bearer token-1', 'Bearer token-1'],
    );
    nfvo.revoked.add('token-1');
    await setup.nfvo.grant(grantRequest(), context);
    setup.close();
    assert.equal(nfvo.tokenRequests().length, 2);
    assert.deepEqual(
      nfvo.requests.slice(-3).map((c) => [c.path, c.headers.authorization ?? '']),
      [
        ['/grant/v1/grants', 'Bearer token-1'],
        ['/token', nfvo.tokenRequests()[1].headers.authorization],
        ['/grant/v1/grants', 'Bearer token-2'],
      ],
    );
  });

  test('a package download carries the token, fetches a new one once when it is refused, and is bounded', async () => {
    const content = Buffer.from('PK\u0003\u0004 package bytes');
    nfvo.handle = (req) =>
      req.path.endsWith('/package_content') ? { status: 200, raw: content } : { status: 404 };
    const setup = nfvoAt(nfvo.url, oauth());
    const first = await setup.client?.download(
      '/vnfpkgm/v2/onboarded_vnf_packages/v1/package_content',
      '2.1.0',
      1000,
    );
    assert.ok((await buffer(first?.body as Readable)).equals(content));
    const token = nfvo.calls().at(-1)?.headers.authorization;
    assert.match(token ?? '', /^Bearer token-\d+$/);
    nfvo.revoked.add((token as string).slice('Bearer '.length));
    const second = await setup.client?.download(
      '/vnfpkgm/v2/onboarded_vnf_packages/v1/package_content',
      '2.1.0',
      1000,
    );
    assert.ok((await buffer(second?.body as Readable)).equals(content));
    setup.close();
    const [refused, retried] = nfvo.calls().slice(-2);
    assert.equal(refused.headers.authorization, token);
    assert.notEqual(retried.headers.authorization, token);
    assert.equal(retried.headers.version, '2.1.0');
    const small = nfvoAt(nfvo.url, oauth());
    const bounded = await small.client?.download(
      '/vnfpkgm/v2/onboarded_vnf_packages/v1/package_content',
      '2.1.0',
      10,
    );
    await assert.rejects(buffer(bounded?.body as Readable), /larger than the 10-byte limit/);
    small.close();
  });

  test('a client secret read from a file; a wrong one fails naming the configuration key', async () => {
    const dir = tempDir('bosun-nfvo-');
    const file = join(dir, 'secret');
    writeFileSync(file, 'wrong\n');
    const setup = nfvoAt(nfvo.url, {
      auth: { ...oauth().auth, clientSecret: '', clientSecretFile: file },
    });
    await assert.rejects(
      setup.nfvo.grant(grantRequest(), context),
      (err: Error) =>
        err instanceof NfvoUnavailable &&
        err.message.includes('token endpoint') &&
        err.message.includes('nfvo.external.auth') &&
        !err.message.includes('wrong'),
    );
    setup.close();
  });
});

describe('external NFVO: Basic', () => {
  let nfvo: FakeNfvo;
  before(async () => {
    nfvo = await startFakeNfvo((req) =>
      req.headers.authorization === `Basic ${Buffer.from('vnfm:pa:ss').toString('base64')}`
        ? { status: 201, body: grantFor(req.json as Record<string, unknown>) }
        : { status: 401, body: { status: 401, detail: 'who are you' } },
    );
  });
  after(() => nfvo.close());

  test('the user name and password (from a file) go in Authorization: Basic', async () => {
    const file = join(tempDir('bosun-nfvo-basic-'), 'password');
    writeFileSync(file, 'pa:ss\n');
    const setup = nfvoAt(nfvo.url, { auth: { type: 'basic', userName: 'vnfm', passwordFile: file } });
    const grant = await setup.nfvo.grant(grantRequest(), context);
    setup.close();
    assert.ok(grant.id.startsWith('grant-'));
  });

  test('credentials the NFVO refuses fail naming the configuration key, not the password', async () => {
    const setup = nfvoAt(nfvo.url, { auth: { type: 'basic', userName: 'vnfm', password: 'wrong-pass' } });
    await assert.rejects(
      setup.nfvo.grant(grantRequest(), context),
      (err: Error) =>
        err instanceof NfvoUnavailable &&
        err.message.includes("refused Bosun's credentials; check nfvo.external.auth: who are you") &&
        !err.message.includes('wrong-pass'),
    );
    setup.close();
  });
});

describe('external NFVO: mutual TLS', () => {
  let pki: TlsPki;
  let nfvo: FakeNfvo;
  let files: { ca: string; cert: string; key: string; strangerCert: string; strangerKey: string };
  before(async () => {
    pki = createTlsPki();
    const dir = tempDir('bosun-nfvo-tls-');
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    files = {
      ca: write('ca.pem', pki.ca),
      cert: write('client.pem', pki.client.cert),
      key: write('client.key', pki.client.key),
      strangerCert: write('stranger.pem', pki.strangerClient.cert),
      strangerKey: write('stranger.key', pki.strangerClient.key),
    };
    nfvo = await startFakeNfvo(
      (req) => ({ status: 201, body: grantFor(req.json as Record<string, unknown>) }),
      {
        tls: { ...pki.server, ca: pki.ca, requestCert: true },
      },
    );
  });
  after(async () => {
    await nfvo.close();
    pki.cleanup();
  });

  test('the client certificate is presented and the NFVO is checked against the CA bundle', async () => {
    const setup = nfvoAt(nfvo.url, {
      caFile: files.ca,
      auth: { type: 'mtls', certFile: files.cert, keyFile: files.key },
    });
    const grant = await setup.nfvo.grant(grantRequest(), context);
    setup.close();
    assert.ok(grant.id.startsWith('grant-'));
    assert.equal(nfvo.calls().at(-1)?.clientCn, 'bosun-client');
  });

  test('OAuth 2.0 with the client certificate (RFC 8705): the token is asked over mutual TLS with client_id', async () => {
    const setup = nfvoAt(nfvo.url, {
      caFile: files.ca,
      auth: {
        type: 'oauth2',
        tokenEndpoint: `${nfvo.url}/token`,
        clientId: 'bosun-vnfm',
        certFile: files.cert,
        keyFile: files.key,
      },
    });
    await setup.nfvo.grant(grantRequest(), context);
    setup.close();
    const [token, call] = nfvo.requests.slice(-2);
    assert.equal(token.path, '/token');
    assert.equal(token.headers.authorization, undefined);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(token.body)), {
      grant_type: 'client_credentials',
      client_id: 'bosun-vnfm',
    });
    assert.equal(token.clientCn, 'bosun-client');
    assert.equal(call.path, '/grant/v1/grants');
    assert.equal(call.headers.authorization, `Bearer ${nfvo.tokens.at(-1)}`);
    assert.equal(call.clientCn, 'bosun-client');
  });

  test('a certificate the NFVO does not trust, or an NFVO not in the CA bundle, fails', async () => {
    const stranger = nfvoAt(nfvo.url, {
      caFile: files.ca,
      auth: { type: 'mtls', certFile: files.strangerCert, keyFile: files.strangerKey },
    });
    await assert.rejects(stranger.nfvo.grant(grantRequest(), context), NfvoUnavailable);
    stranger.close();
    const noCa = nfvoAt(nfvo.url, { auth: { type: 'mtls', certFile: files.cert, keyFile: files.key } });
    await assert.rejects(
      noCa.nfvo.grant(grantRequest(), context),
      (err: Error) => err instanceof NfvoUnavailable && err.message.includes('not trusted'),
    );
    noCa.close();
  });

  test('a key that is not the certificate’s stops the start', () => {
    assert.throws(
      () => nfvoAt(nfvo.url, { auth: { type: 'mtls', certFile: files.cert, keyFile: files.strangerKey } }),
      (err: Error) => err instanceof ConfigError && err.message.includes('nfvo.external.auth'),
    );
  });
});

describe('external NFVO: configuration', () => {
  const refused = (external: Record<string, unknown>, message: RegExp) =>
    assert.throws(
      () => createNfvo(config({ external }), box),
      (err: Error) => err instanceof ConfigError && message.test(err.message),
    );

  test('what cannot work stops the start, naming the key', () => {
    refused({}, /nfvo\.external\.apiRoot: required/);
    refused({ apiRoot: 'ftp://nfvo' }, /apiRoot: must be an http or https URL/);
    refused({ apiRoot: 'https://u:p@nfvo' }, /must not carry credentials/);
    refused(
      { apiRoot: 'https://nfvo', auth: { type: 'oauth2', clientId: 'c' } },
      /oauth2 needs clientSecret/,
    );
    refused(
      { apiRoot: 'https://nfvo', auth: { type: 'oauth2', clientId: 'c', clientSecret: 's' } },
      /auth\.tokenEndpoint: required/,
    );
    refused({ apiRoot: 'https://nfvo', auth: { type: 'basic', userName: 'u' } }, /auth\.password: required/);
    refused({ apiRoot: 'https://nfvo', auth: { type: 'mtls' } }, /mtls needs certFile and keyFile/);
    refused({ apiRoot: 'https://nfvo', caFile: '/nonexistent/ca.pem' }, /caFile: cannot read/);
  });

  test('secrets are masked by config show and each key has its variable', () => {
    const loaded = loadConfig({
      env: {
        BOSUN_NFVO_MODE: 'external',
        BOSUN_NFVO_EXTERNAL_API_ROOT: 'https://nfvo.example',
        BOSUN_NFVO_EXTERNAL_AUTH_TYPE: 'basic',
        BOSUN_NFVO_EXTERNAL_AUTH_USER_NAME: 'vnfm',
        BOSUN_NFVO_EXTERNAL_AUTH_PASSWORD: 'hunter2',
        BOSUN_NFVO_EXTERNAL_AUTH_CLIENT_SECRET: 'also-secret',
      },
    });
    assert.equal(loaded.nfvo.external.auth.password, 'hunter2');
    const shown = JSON.stringify(maskSecrets(loaded));
    assert.doesNotMatch(shown, /hunter2|also-secret/);
    assert.equal(maskSecrets(loaded).nfvo.external.auth.password, '********');
  });

  test('the local mode needs nothing', () => {
    const setup = createNfvo(loadConfig({ env: {} }), box);
    assert.equal(setup.client, undefined);
    assert.equal(setup.nfvo.constructor.name, 'LocalNfvo');
  });

  test('Retry-After in seconds or as a date', () => {
    assert.equal(retryAfterMs('3'), 3000);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6000);
    assert.equal(retryAfterMs('soon'), undefined);
    assert.equal(retryAfterMs(undefined), undefined);
  });
});
