/**
 * Delivery with the subscription's SOL013 authentication, against real receivers and a real
 * OAuth 2.0 token endpoint on loopback: Basic; OAuth 2.0 client credentials with a token that
 * expires mid-run and one the receiver revokes (401, refreshed once); mutual TLS with a CA and
 * certificates made in the test (TLS_CERT), and OAuth 2.0 with a client certificate
 * (OAUTH2_CLIENT_CERT). The callback test GET carries the same credentials.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { certificateThumbprint } from '../../../src/notify/delivery/authentication.ts';
import { http } from '../../support/http.ts';
import {
  adminStatus,
  deliveryServer,
  enqueueFor,
  type Received,
  range,
  seqsOf,
  startDeliveryServer,
  subscribe,
  waitStatus,
} from './support.ts';
import { createTlsPki, type TlsPki } from './tls-pki.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const formEncode = (text: string) => new URLSearchParams({ x: text }).toString().slice(2);

/** A client-credentials token endpoint: checks the client, issues t1, t2… valid `ttlSeconds`. */
function tokenIssuer(
  client: { id: string; secret: string } | { id: string; certCn: string },
  ttlSeconds: number,
) {
  const tokens = new Map<string, number>();
  let issued = 0;
  const behaviour = (req: Received) => {
    const form = new URLSearchParams(req.text);
    const formOk =
      req.method === 'POST' &&
      req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
      form.get('grant_type') === 'client_credentials';
    // RFC 6749 §2.3.1: id and secret form-encoded, then Basic.
    const clientOk =
      'secret' in client
        ? req.headers.authorization ===
          `Basic ${b64(`${formEncode(client.id)}:${formEncode(client.secret)}`)}`
        : form.get('client_id') === client.id && req.clientCert === client.certCn;
    if (!formOk || !clientOk) return { status: 401, body: JSON.stringify({ error: 'invalid_client' }) };
    const token = `t${++issued}`;
    tokens.set(token, Date.now() + ttlSeconds * 1000);
    return {
      status: 200,
      body: JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttlSeconds }),
    };
  };
  return {
    behaviour,
    issued: () => issued,
    valid: (authorization: string | undefined) => {
      const token = authorization?.replace(/^Bearer /, '') ?? '';
      return (tokens.get(token) ?? 0) > Date.now();
    },
    revoke: (token: string) => tokens.delete(token),
  };
}

describe('delivery with authentication', () => {
  // The callback test runs on subscription: it must pass with the credentials too.
  const server = deliveryServer('sqlite', { config: { notify: { callbackTest: true } } });
  const receiver = server.receiver;
  let pki: TlsPki;
  before(() => {
    pki = createTlsPki();
  });
  after(() => pki.cleanup());

  test('BASIC: every call carries the credentials, the callback test included', async () => {
    const expected = `Basic ${b64('alice:pa:ss wörd')}`;
    const r = await receiver((req) => ({ status: req.headers.authorization === expected ? 204 : 401 }));
    const id = await subscribe(server, `${r.url}/basic`, {
      authentication: { authType: ['BASIC'], paramsBasic: { userName: 'alice', password: 'pa:ss wörd' } },
    });
    await enqueueFor(server.context.db, id, 3);
    await waitStatus(server, id, (s) => s.delivery.delivered === 3, 'delivered');
    assert.deepEqual(
      r.received.map((x) => [x.method, x.headers.authorization === expected]),
      [
        ['GET', true],
        ['POST', true],
        ['POST', true],
        ['POST', true],
      ],
    );
    // Wrong credentials: the callback test refuses the subscription and says why.
    const refused = await http<{ detail: string }>(server.url, 'POST', '/vnfpkgm/v1/subscriptions', {
      body: {
        callbackUri: `${r.url}/basic-wrong`,
        authentication: { authType: ['BASIC'], paramsBasic: { userName: 'alice', password: 'nope' } },
      },
    });
    assert.equal(refused.status, 422, refused.text);
    assert.match(
      refused.body.detail,
      /answered HTTP 401 \(the receiver refused the credentials of authentication\)/,
    );
    // Secrets are never returned.
    const shown = await http(server.url, 'GET', `/bosun/v1/subscriptions/${id}`);
    assert.doesNotMatch(shown.text, /pa:ss/);
  });

  test('OAUTH2_CLIENT_CREDENTIALS: token cached, renewed when it expires, refreshed once on a 401', async () => {
    const issuer = tokenIssuer({ id: 'bosun client', secret: 's3cret:+&' }, 2);
    const tokenEndpoint = await receiver(issuer.behaviour);
    const r = await receiver((req) => ({ status: issuer.valid(req.headers.authorization) ? 204 : 401 }));
    const id = await subscribe(server, `${r.url}/oauth2`, {
      authentication: {
        authType: ['OAUTH2_CLIENT_CREDENTIALS'],
        paramsOauth2ClientCredentials: {
          clientId: 'bosun client',
          clientPassword: 's3cret:+&',
          tokenEndpoint: `${tokenEndpoint.url}/token`,
        },
      },
    });
    // The callback test fetched t1; the notifications reuse it.
    await enqueueFor(server.context.db, id, 5);
    await waitStatus(server, id, (s) => s.delivery.delivered === 5, 'first run');
    assert.equal(issuer.issued(), 1);
    assert.deepEqual(
      r.received.map((x) => x.headers.authorization),
      Array(6).fill('Bearer t1'),
    );

    // t1 expires (2 s): the next run fetches t2 before calling — no 401 on the way.
    await new Promise((resolve) => setTimeout(resolve, 2050));
    await enqueueFor(server.context.db, id, 5, { firstSeq: 5 });
    await waitStatus(server, id, (s) => s.delivery.delivered === 10, 'second run');
    assert.equal(issuer.issued(), 2);
    assert.deepEqual(
      r
        .notifications()
        .slice(5)
        .map((x) => x.headers.authorization),
      Array(5).fill('Bearer t2'),
    );

    // The receiver revokes t2: one 401, a fresh token (t3), the same notification again — not a failure.
    issuer.revoke('t2');
    await enqueueFor(server.context.db, id, 2, { firstSeq: 10 });
    const s = await waitStatus(server, id, (x) => x.delivery.delivered === 12, 'third run');
    assert.equal(issuer.issued(), 3);
    assert.deepEqual(
      r
        .notifications()
        .slice(10)
        .map((x) => [x.body?.seq, x.headers.authorization]),
      [
        [10, 'Bearer t2'],
        [10, 'Bearer t3'],
        [11, 'Bearer t3'],
      ],
    );
    assert.equal(s.delivery.failedAttempts, 0);
    assert.deepEqual(
      seqsOf(r, id).filter((x, i, all) => all.indexOf(x) === i),
      range(0, 12),
    );
    // The token endpoint got the form and the client authentication every time.
    assert.ok(tokenEndpoint.received.every((x) => x.method === 'POST' && x.path === '/token'));
  });

  test('a token endpoint refusing the client: the attempt fails and says so', async () => {
    const quiet = await startDeliveryServer('sqlite');
    try {
      const issuer = tokenIssuer({ id: 'bosun', secret: 'right' }, 60);
      const tokenEndpoint = await receiver(issuer.behaviour);
      const r = await receiver();
      const id = await subscribe(quiet, `${r.url}/bad-client`, {
        authentication: {
          authType: ['OAUTH2_CLIENT_CREDENTIALS'],
          paramsOauth2ClientCredentials: {
            clientId: 'bosun',
            clientPassword: 'wrong',
            tokenEndpoint: `${tokenEndpoint.url}/token`,
          },
        },
      });
      await enqueueFor(quiet.context.db, id, 1);
      const s = await waitStatus(quiet, id, (x) => x.delivery.dead === 1, 'dead');
      assert.equal(
        s.delivery.lastError,
        `token endpoint ${tokenEndpoint.url}/token answered HTTP 401 (invalid_client); check the client id and secret (or certificate) of the subscription authentication`,
      );
      assert.deepEqual(r.received, []);
    } finally {
      await quiet.close();
    }
  });

  test('TLS_CERT: mutual TLS with the client certificate, the receiver trusted through caCertificate', async () => {
    const r = await receiver(undefined, { ...pki.server, clientCa: pki.ca });
    const id = await subscribe(server, `${r.url}/mtls`, {
      authentication: {
        authType: ['TLS_CERT'],
        paramsTlsCert: { certificate: pki.client.cert, privateKey: pki.client.key, caCertificate: pki.ca },
      },
    });
    await enqueueFor(server.context.db, id, 3);
    await waitStatus(server, id, (s) => s.delivery.delivered === 3, 'delivered over mTLS');
    assert.deepEqual(
      r.received.map((x) => [x.method, x.clientCert]),
      [
        ['GET', 'bosun-client'],
        ['POST', 'bosun-client'],
        ['POST', 'bosun-client'],
        ['POST', 'bosun-client'],
      ],
    );
    assert.deepEqual(seqsOf(r, id), [0, 1, 2]);
  });

  test('TLS failures: a client certificate the receiver does not trust, a receiver Bosun does not trust', async () => {
    const quiet = await startDeliveryServer('sqlite');
    try {
      const r = await receiver(undefined, { ...pki.server, clientCa: pki.ca });
      const stranger = await subscribe(quiet, `${r.url}/stranger`, {
        authentication: {
          authType: ['TLS_CERT'],
          paramsTlsCert: {
            certificate: pki.strangerClient.cert,
            privateKey: pki.strangerClient.key,
            caCertificate: pki.ca,
          },
        },
      });
      const noCa = await subscribe(quiet, `${r.url}/no-ca`, {
        authentication: {
          authType: ['TLS_CERT'],
          paramsTlsCert: { certificate: pki.client.cert, privateKey: pki.client.key },
        },
      });
      await enqueueFor(quiet.context.db, stranger, 1);
      await enqueueFor(quiet.context.db, noCa, 1);
      const a = await waitStatus(
        quiet,
        stranger,
        (x) => x.delivery.failedAttempts >= 1,
        'refused client cert',
      );
      assert.match(a.delivery.lastError ?? '', /closed the connection|TLS connection to .* failed/);
      const b = await waitStatus(quiet, noCa, (x) => x.delivery.failedAttempts >= 1, 'untrusted receiver');
      assert.match(
        b.delivery.lastError ?? '',
        /^TLS connection to https:\/\/127\.0\.0\.1:\d+\/no-ca failed \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)\): the server certificate is not trusted/,
      );
      assert.deepEqual(r.received, []);
    } finally {
      await quiet.close();
    }
  });

  test('OAUTH2_CLIENT_CERT: the token comes over mutual TLS, the callback gets both', async () => {
    const issuer = tokenIssuer({ id: 'bosun-mtls', certCn: 'bosun-client' }, 60);
    const tokenEndpoint = await receiver(issuer.behaviour, { ...pki.server, clientCa: pki.ca });
    const r = await receiver(
      (req) => ({
        status: issuer.valid(req.headers.authorization) && req.clientCert === 'bosun-client' ? 204 : 401,
      }),
      { ...pki.server, clientCa: pki.ca },
    );
    const id = await subscribe(server, `${r.url}/oauth2-cert`, {
      authentication: {
        authType: ['OAUTH2_CLIENT_CERT', 'TLS_CERT'],
        paramsOauth2ClientCert: {
          clientId: 'bosun-mtls',
          certificateRef: { type: 'x5t#S256', value: certificateThumbprint(pki.client.cert) },
          tokenEndpoint: `${tokenEndpoint.url}/token`,
        },
        paramsTlsCert: { certificate: pki.client.cert, privateKey: pki.client.key, caCertificate: pki.ca },
      },
    });
    await enqueueFor(server.context.db, id, 2);
    await waitStatus(server, id, (s) => s.delivery.delivered === 2, 'delivered');
    assert.equal(issuer.issued(), 1);
    assert.deepEqual(
      r.received.map((x) => [x.method, x.headers.authorization, x.clientCert]),
      [
        ['GET', 'Bearer t1', 'bosun-client'],
        ['POST', 'Bearer t1', 'bosun-client'],
        ['POST', 'Bearer t1', 'bosun-client'],
      ],
    );
    assert.equal((await adminStatus(server, id)).delivery.failedAttempts, 0);
  });
});
