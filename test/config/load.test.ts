import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { envLeaves } from '../../src/config/env.ts';
import { ConfigError } from '../../src/config/errors.ts';
import { loadConfig } from '../../src/config/load.ts';
import { maskSecrets } from '../../src/config/mask.ts';
import { ConfigSchema } from '../../src/config/schema.ts';
import { tempDir } from '../support/temp.ts';

const dir = tempDir('bosun-config-');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const KEY = Buffer.alloc(32, 7).toString('base64');

describe('configuration', () => {
  test('the defaults need nothing', () => {
    const c = loadConfig({ env: {} });
    assert.equal(c.server.port, 9890);
    assert.equal(c.server.bind, '127.0.0.1');
    assert.equal(c.database.url, 'sqlite:./var/bosun.db');
    assert.equal(c.blobs.dir, './var/blobs');
    assert.equal(c.auth.mode, 'none');
  });

  test('YAML file, then BOSUN_* environment over it', () => {
    const path = file('a.yaml', 'server:\n  port: 1234\n  bodyLimit: 2048\nlog:\n  level: debug\n');
    const c = loadConfig({
      file: path,
      env: { BOSUN_SERVER_PORT: '4321', BOSUN_PAGING_PAGE_SIZES: '{"vnf_instances":7}' },
    });
    assert.equal(c.server.port, 4321);
    assert.equal(c.server.bodyLimit, 2048);
    assert.equal(c.log.level, 'debug');
    assert.deepEqual(c.paging.pageSizes, { vnf_instances: 7 });
  });

  test('BOSUN_CONFIG names the file', () => {
    const path = file('b.yaml', 'server:\n  port: 2222\n');
    assert.equal(loadConfig({ env: { BOSUN_CONFIG: path } }).server.port, 2222);
  });

  test('every error names the bad key and why', () => {
    const cases: [string, RegExp][] = [
      ['server:\n  port: 99999\n', /server\.port: .*65535/],
      ['server:\n  prot: 1\n', /server\.prot: unknown key/],
      ['auth:\n  mode: kerberos\n', /auth\.mode: .*none, oauth2.*kerberos/],
      ['database:\n  url: mysql://x\n', /database\.url: expected 'sqlite:<file>' or 'postgres/],
      ['- a\n- b\n', /must be a YAML mapping/],
      ['server: [unclosed\n', /invalid YAML/],
    ];
    for (const [text, message] of cases) {
      assert.throws(
        () => loadConfig({ file: file('bad.yaml', text), env: {} }),
        (err: Error) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, message);
          return true;
        },
      );
    }
    assert.throws(
      () => loadConfig({ file: join(dir, 'missing.yaml'), env: {} }),
      /cannot read configuration file/,
    );
  });

  test('environment errors name the variable', () => {
    assert.throws(
      () => loadConfig({ env: { BOSUN_SERVER_PROT: '1' } }),
      /BOSUN_SERVER_PROT: not a Bosun configuration variable/,
    );
    assert.throws(
      () => loadConfig({ env: { BOSUN_SERVER_PORT: 'x' } }),
      /BOSUN_SERVER_PORT: 'x' is not a number/,
    );
    assert.throws(
      () => loadConfig({ env: { BOSUN_SERVER_ALLOW_UNAUTHENTICATED_NETWORK: 'perhaps' } }),
      /not a boolean/,
    );
    assert.throws(() => loadConfig({ env: { BOSUN_PAGING_PAGE_SIZES: '{bad' } }), /expected JSON/);
    // Test and benchmark variables are not configuration.
    assert.equal(
      loadConfig({ env: { BOSUN_TEST_PG_URL: 'postgres://x', BOSUN_BENCH_ROWS: '5' } }).server.port,
      9890,
    );
  });

  test('auth none refuses a non-loopback bind unless the operator says so', () => {
    assert.throws(
      () => loadConfig({ env: { BOSUN_SERVER_BIND: '0.0.0.0' } }),
      /server\.bind: '0\.0\.0\.0' is not a loopback/,
    );
    const allowed = loadConfig({
      env: { BOSUN_SERVER_BIND: '0.0.0.0', BOSUN_SERVER_ALLOW_UNAUTHENTICATED_NETWORK: 'true' },
    });
    assert.equal(allowed.server.bind, '0.0.0.0');
    assert.equal(
      loadConfig({ env: { BOSUN_SERVER_BIND: '0.0.0.0', BOSUN_AUTH_MODE: 'oauth2' } }).auth.mode,
      'oauth2',
    );
    assert.equal(loadConfig({ env: { BOSUN_SERVER_BIND: '::1' } }).server.bind, '::1');
  });

  test('zone reselection patterns must be regular expressions', () => {
    assert.throws(
      () => loadConfig({ env: { BOSUN_LCM_PLACEMENT_RESELECT_PATTERNS: 'No valid host,([unclosed' } }),
      /lcm\.placementReselectPatterns: '\(\[unclosed' is not a regular expression/,
    );
    const config = loadConfig({
      env: { BOSUN_LCM_PLACEMENT_RESELECT_PATTERNS: 'No valid host,Insufficient .* capacity' },
    });
    assert.deepEqual(config.lcm.placementReselectPatterns, ['No valid host', 'Insufficient .* capacity']);
    assert.equal(config.lcm.placementZoneRetries, 0);
  });

  test('PostgreSQL needs a shared encryption key of 32 bytes', () => {
    const env = { BOSUN_DATABASE_URL: 'postgres://u:p@db/bosun' };
    assert.throws(() => loadConfig({ env }), /security\.encryptionKey: required with PostgreSQL/);
    assert.throws(
      () => loadConfig({ env: { ...env, BOSUN_SECURITY_ENCRYPTION_KEY: 'c2hvcnQ=' } }),
      /exactly 32 bytes/,
    );
    assert.equal(
      loadConfig({ env: { ...env, BOSUN_SECURITY_ENCRYPTION_KEY: KEY } }).database.url,
      env.BOSUN_DATABASE_URL,
    );
  });

  test('secrets are masked for display, the rest is shown', () => {
    const c = loadConfig({
      env: {
        BOSUN_DATABASE_URL: 'postgres://bosun:hunter2@db:5432/bosun',
        BOSUN_SECURITY_ENCRYPTION_KEY: KEY,
      },
    });
    const shown = maskSecrets(c);
    assert.equal(shown.database.url, 'postgres://bosun:********@db:5432/bosun');
    assert.equal(shown.security.encryptionKey, '********');
    assert.equal(shown.server.port, 9890);
    assert.equal(c.security.encryptionKey, KEY, 'masking does not alter the configuration');
  });

  test('secrets inside lists are masked too: the alert receivers', () => {
    const receivers = [
      { name: 'am', bearerToken: 'a-bearer-token-of-some-length' },
      { name: 'basic', username: 'prom', password: 'a-basic-password-long-enough' },
    ];
    const c = loadConfig({ env: { BOSUN_FM_ALERT_RECEIVERS: JSON.stringify(receivers) } });
    assert.deepEqual(maskSecrets(c).fm.alertReceivers, [
      { name: 'am', bearerToken: '********' },
      { name: 'basic', username: 'prom', password: '********' },
    ]);
    assert.equal(c.fm.alertReceivers[0].bearerToken, receivers[0].bearerToken);
  });

  test('a list of values from the environment: a plain comma list or JSON', () => {
    const allow = (value: string) => loadConfig({ env: { BOSUN_OUTBOUND_ALLOW: value } }).outbound.allow;
    assert.deepEqual(allow('127.0.0.1,::1'), ['127.0.0.1', '::1']);
    assert.deepEqual(allow(' 10.0.0.0/8 , fd00::/8 '), ['10.0.0.0/8', 'fd00::/8']);
    assert.deepEqual(allow('127.0.0.1'), ['127.0.0.1']);
    assert.deepEqual(allow('["127.0.0.1","::1"]'), ['127.0.0.1', '::1']);
    assert.deepEqual(allow(''), []);
    assert.throws(() => allow('127.0.0.1,,::1'), /BOSUN_OUTBOUND_ALLOW: empty item in the comma list/);
    assert.throws(
      () => allow('["127.0.0.1"'),
      /BOSUN_OUTBOUND_ALLOW: expected JSON \(array\) or a comma list/,
    );
    const anchors = loadConfig({ env: { BOSUN_PACKAGES_TRUST_ANCHORS: '/etc/a.pem,/etc/b.pem' } });
    assert.deepEqual(anchors.packages.trustAnchors, ['/etc/a.pem', '/etc/b.pem']);
  });

  test('each leaf key has exactly one environment variable', () => {
    const names = envLeaves(ConfigSchema).map((l) => l.variable);
    assert.equal(new Set(names).size, names.length);
    assert.ok(names.includes('BOSUN_AUTH_OAUTH2_JWKS_URL'));
    assert.ok(names.includes('BOSUN_SERVER_BODY_LIMIT'));
  });
});
