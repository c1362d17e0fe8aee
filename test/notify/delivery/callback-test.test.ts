/**
 * The SOL013 callback test against real receivers on loopback: a GET with the API's Version
 * expecting 204; any other outcome is a CallbackTestError that names it (status received,
 * connection refused, timeout, address refused by the outbound policy, unusable
 * authentication). notify.callbackTest false skips it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Config, deepMerge, loadConfig } from '../../../src/config/load.ts';
import { OutboundPolicy } from '../../../src/net/address-policy.ts';
import { CallbackClient } from '../../../src/notify/delivery/callback-client.ts';
import { CallbackTestError, testCallback } from '../../../src/notify/delivery/callback-test.ts';
import { FAST_DELIVERY, type Receiver, startReceiver } from './support.ts';

const configWith = (extra: Record<string, unknown> = {}): Config =>
  loadConfig({
    env: {},
    overrides: deepMerge(
      deepMerge(FAST_DELIVERY, { notify: { callbackTest: true, requestTimeoutMs: 1000 } }),
      extra,
    ),
  });

/** What the runtime gives the callback test: the configuration and a callback client built from it. */
const clients: CallbackClient[] = [];
function contextOf(config: Config) {
  const callbacks = new CallbackClient(OutboundPolicy.fromConfig(config), config.notify.requestTimeoutMs);
  clients.push(callbacks);
  return { config, callbacks };
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail('expected a CallbackTestError'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof CallbackTestError, String(error));
  return error.message;
}

describe('callback test', () => {
  let receiver: Receiver;
  const config = configWith();
  const context = contextOf(config);
  before(async () => {
    receiver = await startReceiver((req) => {
      if (req.path.startsWith('/ok')) return { status: 204 };
      if (req.path.startsWith('/slow')) return { status: 204, delayMs: 3000 };
      return { status: Number(req.path.split('/')[2] ?? 500) };
    });
  });
  after(async () => {
    for (const client of clients) client.close();
    await receiver.close();
  });

  test('204 to a GET with the Version of the API: passed', async () => {
    await testCallback(context, { api: 'vnflcm', major: 'v2', callbackUri: `${receiver.url}/ok?x=1` });
    const got = receiver.received.at(-1);
    assert.equal(got?.method, 'GET');
    assert.equal(got?.path, '/ok?x=1');
    assert.equal(got?.headers.version, '2.0.0');
    assert.equal(got?.headers.accept, 'application/json');
    assert.equal(got?.text, '');
  });

  test('any other status is refused and named', async () => {
    for (const status of [200, 201, 404, 500]) {
      const message = await failure(
        testCallback(context, {
          api: 'vnfpkgm',
          major: 'v1',
          callbackUri: `${receiver.url}/status/${status}`,
        }),
      );
      assert.equal(
        message,
        `the callback test failed: GET ${receiver.url}/status/${status} answered HTTP ${status}; SOL013 requires 204 No Content`,
      );
    }
    const unauthorized = await failure(
      testCallback(context, { api: 'vnfpkgm', major: 'v1', callbackUri: `${receiver.url}/status/401` }),
    );
    assert.match(unauthorized, /answered HTTP 401 \(the receiver wants credentials: give authentication\)/);
  });

  test('connection refused, timeout, refused address, bad authentication', async () => {
    const closed = await startReceiver();
    await closed.close();
    assert.equal(
      await failure(testCallback(context, { api: 'vnfpkgm', major: 'v1', callbackUri: `${closed.url}/cb` })),
      `the callback test failed: connection refused by ${closed.url}/cb: is the receiver running?`,
    );
    assert.equal(
      await failure(
        testCallback(context, { api: 'vnfpkgm', major: 'v1', callbackUri: `${receiver.url}/slow` }),
      ),
      `the callback test failed: ${receiver.url}/slow did not answer within 1000 ms`,
    );
    const strict = contextOf(configWith({ outbound: { allow: [] } }));
    const before = receiver.received.length;
    assert.match(
      await failure(testCallback(strict, { api: 'vnfpkgm', major: 'v1', callbackUri: `${receiver.url}/ok` })),
      /^the callback test failed: refusing to call 127\.0\.0\.1, a loopback address/,
    );
    assert.equal(receiver.received.length, before, 'nothing was sent to a refused address');
    assert.equal(
      await failure(
        testCallback(context, {
          api: 'vnfpkgm',
          major: 'v1',
          callbackUri: `${receiver.url}/ok`,
          authentication: { authType: ['TLS_CERT'] },
        }),
      ),
      'authentication: TLS_CERT needs paramsTlsCert with certificate and privateKey (PEM), the Bosun extension carrying the client certificate',
    );
  });

  test('notify.callbackTest false: nothing is called', async () => {
    const before = receiver.received.length;
    const off = contextOf(configWith({ notify: { callbackTest: false } }));
    await testCallback(off, { api: 'vnfpkgm', major: 'v1', callbackUri: `${receiver.url}/status/500` });
    assert.equal(receiver.received.length, before);
  });
});
