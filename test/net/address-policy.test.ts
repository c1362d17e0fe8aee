import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../src/config/errors.ts';
import { OutboundPolicy } from '../../src/net/address-policy.ts';
import { OutboundLookupError, OutboundRefusedError } from '../../src/net/errors.ts';

/** A resolver that never touches the network: names map to fixed addresses. */
function fakeDns(table: Record<string, string[]>) {
  return async (host: string) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };
}

async function refusal(policy: OutboundPolicy, url: string): Promise<OutboundRefusedError> {
  const error = await policy.check(new URL(url)).then(
    () => assert.fail(`${url} should have been refused`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OutboundRefusedError, String(error));
  return error;
}

// [address as written in a URL host, CIDR that allows it, kind in the message]
const nonPublic: [string, string, string][] = [
  ['127.0.0.1', '127.0.0.0/8', 'loopback'],
  ['127.255.255.254', '127.0.0.0/8', 'loopback'],
  ['10.1.2.3', '10.0.0.0/8', 'private'],
  ['172.16.0.1', '172.16.0.0/12', 'private'],
  ['172.31.255.255', '172.16.0.0/12', 'private'],
  ['192.168.1.1', '192.168.0.0/16', 'private'],
  ['169.254.169.254', '169.254.0.0/16', 'link-local'],
  ['0.0.0.0', '0.0.0.0/8', 'unspecified'],
  ['100.64.0.1', '100.64.0.0/10', 'CGNAT'],
  ['100.127.255.255', '100.64.0.0/10', 'CGNAT'],
  ['224.0.0.1', '224.0.0.0/4', 'multicast'],
  ['239.255.255.250', '224.0.0.0/4', 'multicast'],
  ['255.255.255.255', '240.0.0.0/4', 'reserved'],
  ['[::1]', '::1/128', 'loopback'],
  ['[::]', '::/128', 'unspecified'],
  ['[fc00::1]', 'fc00::/7', 'private'],
  ['[fd12:3456::1]', 'fc00::/7', 'private'],
  ['[fe80::1]', 'fe80::/10', 'link-local'],
  ['[febf::1]', 'fe80::/10', 'link-local'],
  ['[ff02::1]', 'ff00::/8', 'multicast'],
];

// IPv6 spellings of non-public IPv4 addresses: judged (and allowed) as the IPv4 address
const embedded: [string, string, string][] = [
  ['[::ffff:127.0.0.1]', '127.0.0.0/8', 'loopback'],
  ['[::ffff:127.0.0.1]', '::ffff:127.0.0.0/104', 'loopback'],
  ['[::ffff:10.0.0.1]', '10.0.0.0/8', 'private'],
  ['[::ffff:a9fe:a9fe]', '169.254.0.0/16', 'link-local'],
  ['[::ffff:0:0]', '0.0.0.0/8', 'unspecified'],
  ['[64:ff9b::192.168.0.1]', '192.168.0.0/16', 'private'],
  ['[2002:a00:1::]', '10.0.0.0/8', 'private'],
];

describe('OutboundPolicy', () => {
  for (const [host, cidr, kind] of [...nonPublic, ...embedded]) {
    it(`refuses ${host} (${kind}) by default and allows it when ${cidr} is listed`, async () => {
      const error = await refusal(new OutboundPolicy([]), `http://${host}/x`);
      assert.equal(error.code, 'OUTBOUND_REFUSED');
      assert.match(error.message, new RegExp(kind.replace(/[()]/g, '.')));
      assert.match(error.message, /add it to outbound\.allow/);
      const normalized = new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, '');
      assert.ok(error.message.includes(normalized), error.message);
      const addresses = await new OutboundPolicy([cidr]).check(new URL(`http://${host}/x`));
      assert.deepEqual(addresses, [normalized]);
    });
  }

  it('accepts the neighbours of the refused ranges as public', async () => {
    const policy = new OutboundPolicy([]);
    for (const host of [
      '172.15.255.255',
      '172.32.0.1',
      '100.63.255.255',
      '100.128.0.1',
      '11.0.0.1',
      '[fbff::1]',
    ]) {
      assert.equal((await policy.check(new URL(`https://${host}/`))).length, 1, host);
    }
  });

  it('sees through other spellings of an IPv4 address', async () => {
    const policy = new OutboundPolicy([]);
    for (const url of ['http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://127.1/']) {
      const error = await refusal(policy, url);
      assert.equal(error.address, '127.0.0.1', url);
    }
  });

  it('allows public IP literals without a list (and without connecting)', async () => {
    const policy = new OutboundPolicy([]);
    assert.deepEqual(await policy.check(new URL('https://1.1.1.1/pkg.zip')), ['1.1.1.1']);
    assert.deepEqual(await policy.check(new URL('http://[2606:4700::1111]:8080/')), ['2606:4700::1111']);
    assert.deepEqual(await policy.check(new URL('http://[::ffff:8.8.8.8]/')), ['::ffff:808:808']);
  });

  it('allows a single listed IP and nothing next to it', async () => {
    const policy = new OutboundPolicy(['10.1.2.3']);
    assert.deepEqual(await policy.check(new URL('http://10.1.2.3/')), ['10.1.2.3']);
    await refusal(policy, 'http://10.1.2.4/');
  });

  it('refuses schemes other than http and https', async () => {
    const policy = new OutboundPolicy(['127.0.0.0/8']);
    for (const url of ['ftp://127.0.0.1/x', 'file:///etc/passwd', 'gopher://127.0.0.1/']) {
      const error = await refusal(policy, url);
      assert.equal(error.code, 'OUTBOUND_SCHEME', url);
      assert.match(error.message, /only http and https/);
    }
  });

  it('refuses a name that resolves to loopback (localhost) with an empty list', async () => {
    const error = await refusal(new OutboundPolicy([]), 'http://localhost:8080/');
    assert.equal(error.code, 'OUTBOUND_REFUSED');
    assert.match(error.message, /localhost: it resolves to /);
    assert.equal(error.host, 'localhost');
    const allowed = await new OutboundPolicy(['127.0.0.0/8', '::1/128']).check(new URL('http://localhost/'));
    assert.ok(allowed.length > 0);
  });

  it('refuses a name when any of its addresses is non-public', async () => {
    const policy = new OutboundPolicy([], { resolve: fakeDns({ 'mixed.example': ['1.1.1.1', '10.0.0.7'] }) });
    const error = await refusal(policy, 'https://mixed.example/');
    assert.equal(error.address, '10.0.0.7');
    assert.match(error.message, /"mixed\.example"/);
  });

  it('allows by host name, case-insensitively, whatever the name resolves to', async () => {
    const resolve = fakeDns({ 'repo.internal': ['10.0.0.5', 'fd00::5'], 'other.internal': ['10.0.0.6'] });
    await refusal(new OutboundPolicy([], { resolve }), 'http://repo.internal/');
    const policy = new OutboundPolicy(['REPO.Internal.'], { resolve });
    assert.deepEqual(await policy.check(new URL('http://Repo.INTERNAL/x')), ['10.0.0.5', 'fd00::5']);
    await refusal(policy, 'http://other.internal/');
  });

  it('returns public addresses of a name', async () => {
    const policy = new OutboundPolicy([], { resolve: fakeDns({ 'pub.example': ['1.1.1.1', '1.1.1.1'] }) });
    assert.deepEqual(await policy.check(new URL('https://pub.example/')), ['1.1.1.1']);
  });

  it('reports a name that does not resolve', async () => {
    const policy = new OutboundPolicy([], { resolve: fakeDns({}) });
    const error = await policy.check(new URL('http://nowhere.example/')).catch((e: unknown) => e);
    assert.ok(error instanceof OutboundLookupError);
    assert.equal(error.code, 'OUTBOUND_UNRESOLVED');
    assert.match(error.message, /nowhere\.example.*ENOTFOUND/);
  });

  it('rejects malformed allow entries with the key that holds them', () => {
    for (const entry of ['10.0.0.0/33', '::1/129', '10.0.0.0/x', 'not a host', 'bad/name']) {
      assert.throws(
        () => new OutboundPolicy(['127.0.0.0/8', entry]),
        (e: unknown) => e instanceof ConfigError && e.message.includes('outbound.allow[1]'),
        entry,
      );
    }
  });
});
