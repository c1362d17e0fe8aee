import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { subscriptionRequest } from '../../src/cli/commands/subscription-request.ts';
import { SUBSCRIPTION_APIS } from '../../src/notify/subscriptions/apis.ts';
import { createOpensslCa, type Issued } from '../support/openssl-ca.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function bosun(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BOSUN_')) clean[k] = v;
  return new Promise((resolve) => {
    execFile(BOSUN, args, { env: { ...clean, ...env } }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: number }).code : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

async function ok(args: string[], env: Record<string, string>): Promise<string> {
  const r = await bosun(args, env);
  assert.equal(r.code, 0, `bosun ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const flags = {
  notificationType: [] as string[],
  authType: [] as string[],
};

describe('bosun subscription create against a server', () => {
  let server: TestServer;
  let env: Record<string, string>;
  let client: Issued;
  const dir = tempDir('bosun-cli-sub-');
  before(async () => {
    server = await startTestServer('sqlite', {
      config: { outbound: { allow: ['127.0.0.1'] }, notify: { callbackTest: false } },
    });
    env = { BOSUN_URL: server.url };
    const ca = createOpensslCa('bosun-cli-sub-ca-', 'ec');
    ca.ca('ca', { days: 2, keyUsage: 'keyCertSign' });
    client = ca.issue('client', { ca: 'ca', days: 2, extensions: 'extendedKeyUsage=clientAuth' });
    writeFileSync(join(dir, 'ca.pem'), ca.ca('other-ca', { days: 2, keyUsage: 'keyCertSign' }).cert);
  });
  after(() => server.close());

  test('every API major: created with its notification type filter, -q prints the id, list finds it', async () => {
    for (const def of SUBSCRIPTION_APIS) {
      const type = def.notificationTypes[0];
      const args = ['subscription', 'create', '--api', def.api, '--api-version', def.major.slice(1)];
      const callback = `http://127.0.0.1:9/${def.api}/${def.major}`;
      const id = (
        await ok([...args, '--callback-uri', callback, '--notification-type', type, '-q'], env)
      ).trim();
      assert.match(id, /^[\w-]+$/, `${def.api}/${def.major}: -q prints the id alone`);
      const listed = await ok(['subscription', 'list', '--api', def.api, '--id-only'], env);
      assert.ok(listed.split('\n').includes(id), `${def.api}/${def.major}: listed`);
      const shown = JSON.parse(await ok(['subscription', 'show', id, '--json'], env));
      assert.equal(shown.major, def.major);
      assert.equal(shown.callbackUri, callback);
      // The same request again: the server's 303 to the one already there.
      const again = await ok([...args, '--callback-uri', callback, '--notification-type', type], env);
      assert.equal(
        again,
        `subscription ${id} exists already with this callback and filter (/${def.api}/${def.major}): ${callback}\n`,
      );
    }
    // Without --api-version: the API's newest major.
    const created = JSON.parse(
      await ok(
        ['subscription', 'create', '--api', 'vnflcm', '--callback-uri', 'http://127.0.0.1:9/new', '--json'],
        env,
      ),
    );
    assert.match(created._links.self.href, /\/vnflcm\/v2\/subscriptions\//);
  });

  test('a filter file and the verbosity; --json answers the subscription as the API returns it', async () => {
    const filterFile = join(dir, 'filter.json');
    writeFileSync(
      filterFile,
      JSON.stringify({ operationTypes: ['INSTANTIATE'], operationStates: ['COMPLETED', 'FAILED_TEMP'] }),
    );
    const s = JSON.parse(
      await ok(
        [
          'subscription',
          'create',
          '--api',
          'vnflcm',
          '--callback-uri',
          'http://127.0.0.1:9/filtered',
          '--filter-file',
          filterFile,
          '--notification-type',
          'VnfLcmOperationOccurrenceNotification',
          '--verbosity',
          'short',
          '--json',
        ],
        env,
      ),
    );
    assert.deepEqual(s.filter, {
      operationTypes: ['INSTANTIATE'],
      operationStates: ['COMPLETED', 'FAILED_TEMP'],
      notificationTypes: ['VnfLcmOperationOccurrenceNotification'],
    });
    assert.equal(s.verbosity, 'SHORT');
    assert.equal(s.authentication, undefined, 'authentication is never returned');
  });

  test('every authentication type the server accepts, from flags alone', async () => {
    const cases: [string, string[]][] = [
      ['basic', ['--basic-user', 'nfvo', '--basic-password', 's3cret']],
      [
        'oauth2',
        [
          '--oauth2-client-id',
          'bosun',
          '--oauth2-client-secret',
          'pw',
          '--oauth2-token-endpoint',
          'http://127.0.0.1:9/token',
        ],
      ],
      [
        'oauth2-cert',
        [
          '--oauth2-client-id',
          'bosun',
          '--oauth2-token-endpoint',
          'http://127.0.0.1:9/token',
          '--tls-cert',
          client.certFile,
          '--tls-key',
          client.keyFile,
        ],
      ],
      ['tls', ['--tls-cert', client.certFile, '--tls-key', client.keyFile, '--tls-ca', join(dir, 'ca.pem')]],
      [
        'basic-and-private-ca',
        ['--basic-user', 'u', '--basic-password', 'p', '--tls-ca', join(dir, 'ca.pem')],
      ],
    ];
    for (const [name, auth] of cases) {
      const r = await bosun(
        [
          'subscription',
          'create',
          '--api',
          'vnfpkgm',
          '--callback-uri',
          `http://127.0.0.1:9/${name}`,
          ...auth,
          '-q',
        ],
        env,
      );
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assert.match(r.stdout, /^[\w-]+\n$/);
    }
  });

  test('every create and list command prints ids alone with -q/--id-only', async () => {
    const pkg = (await ok(['package', 'create', '-q'], env)).trim();
    assert.ok((await ok(['package', 'list', '--id-only'], env)).split('\n').includes(pkg));
    const fault = (await ok(['sim', 'fault', 'add', '--kind', 'server.create', '--fail', '-q'], env)).trim();
    assert.equal(await ok(['sim', 'fault', 'list', '-q'], env), `${fault}\n`);
    await ok(['sim', 'fault', 'clear'], env);
    const zones = JSON.parse(await ok(['sim', 'zone', 'list', '--json'], env)) as { name: string }[];
    assert.equal(await ok(['sim', 'zone', 'list', '-q'], env), zones.map((z) => `${z.name}\n`).join(''));
    const vim = (await ok(['vim', 'register', '--name', 'q', '--type', 'BOSUN.SIM.V1', '-q'], env)).trim();
    assert.ok((await ok(['vim', 'list', '-q'], env)).split('\n').includes(vim));
    assert.equal(await ok(['vnf', 'list', '-q'], env), '');
    assert.equal(await ok(['op', 'list', '-q', '--api-version', '1'], env), '');
    const db = { BOSUN_DATABASE_URL: server.config.database.url };
    const added = JSON.parse(
      await ok(['auth', 'client', 'add', '--project', 'p', '--scope', 'bosun:admin', '--json'], db),
    );
    assert.equal(await ok(['auth', 'client', 'list', '-q'], db), `${added.clientId}\n`);
  });

  test("the server's refusals and the CLI's own, one line each", async () => {
    const create = ['subscription', 'create', '--callback-uri', 'http://127.0.0.1:9/x'];
    const cases: [string[], RegExp][] = [
      [create, /^bosun: error: give --api \(vnfpkgm, vnflcm, vnffm, vnfpm\)\n$/],
      [
        [...create, '--api', 'vnffm', '--api-version', '2'],
        /--api-version of vnffm must be one of 1, got '2'/,
      ],
      [
        ['subscription', 'create', '--api', 'vnflcm'],
        /give --callback-uri \(or a --request-file with callbackUri\)/,
      ],
      [[...create, '--api', 'vnflcm', '--tls-ca', join(dir, 'ca.pem')], /give --auth-type: --tls-ca alone/],
      [
        [...create, '--api', 'vnflcm', '--tls-cert', join(dir, 'missing.pem')],
        /--tls-cert .*missing\.pem: ENOENT/,
      ],
      // The server checks what the flags leave out: BASIC without a password.
      [
        [...create, '--api', 'vnflcm', '--basic-user', 'u'],
        /^bosun: error: 400 .*authType BASIC needs paramsBasic with password/,
      ],
      [[...create, '--api', 'vnfpkgm', '--verbosity', 'SHORT'], /^bosun: error: 400 /],
      [
        [...create, '--api', 'vnflcm', '--json', '-q'],
        /option '-q, --id-only' cannot be used with option '--json'/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await bosun(args, env);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
    }
  });
});

describe('subscriptionRequest', () => {
  test('authentication types follow from the parameters given', async () => {
    const dir = tempDir('bosun-cli-subreq-');
    const ca = createOpensslCa('bosun-cli-subreq-ca-', 'ec');
    ca.ca('ca', { days: 2, keyUsage: 'keyCertSign' });
    const cert = ca.issue('c', { ca: 'ca', days: 2, extensions: 'extendedKeyUsage=clientAuth' });
    const thumbprint = createHash('sha256').update(new X509Certificate(cert.cert).raw).digest('base64url');
    const base = { ...flags, callbackUri: 'http://h/cb' };
    assert.deepEqual(
      (
        await subscriptionRequest({
          ...base,
          oauth2ClientId: 'c',
          oauth2TokenEndpoint: 'http://t',
          tlsCert: cert.certFile,
          tlsKey: cert.keyFile,
        })
      ).authentication,
      {
        authType: ['OAUTH2_CLIENT_CERT'],
        paramsOauth2ClientCert: {
          clientId: 'c',
          certificateRef: { type: 'x5t#S256', value: thumbprint },
          tokenEndpoint: 'http://t',
        },
        paramsTlsCert: { certificate: cert.cert, privateKey: cert.key },
      },
    );
    assert.deepEqual(
      (
        await subscriptionRequest({
          ...base,
          basicUser: 'u',
          basicPassword: 'p',
          tlsCert: cert.certFile,
          tlsKey: cert.keyFile,
        })
      ).authentication,
      {
        authType: ['BASIC', 'TLS_CERT'],
        paramsBasic: { userName: 'u', password: 'p' },
        paramsTlsCert: { certificate: cert.cert, privateKey: cert.key },
      },
    );
    // A request file's fields stay unless a flag says otherwise; --auth-type overrides the inference.
    const file = join(dir, 'request.json');
    writeFileSync(
      file,
      JSON.stringify({
        callbackUri: 'http://file/cb',
        filter: { vnfProvider: 'ACME' },
        authentication: { authType: ['BASIC'], paramsBasic: { userName: 'f', password: 'f' } },
      }),
    );
    assert.deepEqual(
      await subscriptionRequest({
        ...flags,
        requestFile: file,
        notificationType: ['VnfPackageChangeNotification'],
      }),
      {
        callbackUri: 'http://file/cb',
        filter: { vnfProvider: 'ACME', notificationTypes: ['VnfPackageChangeNotification'] },
        authentication: { authType: ['BASIC'], paramsBasic: { userName: 'f', password: 'f' } },
      },
    );
    assert.deepEqual(
      (
        await subscriptionRequest({
          ...base,
          authType: ['oauth2_client_credentials'],
          oauth2ClientId: 'c',
          oauth2ClientSecret: 's',
          oauth2TokenEndpoint: 'http://t',
        })
      ).authentication,
      {
        authType: ['OAUTH2_CLIENT_CREDENTIALS'],
        paramsOauth2ClientCredentials: { clientId: 'c', clientPassword: 's', tokenEndpoint: 'http://t' },
      },
    );
    assert.equal((await subscriptionRequest(base)).authentication, undefined);
  });
});
