import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { OutboundPolicy } from '../../src/net/address-policy.ts';
import { download } from '../../src/net/download.ts';
import { DownloadError } from '../../src/net/errors.ts';
import type { LocalServer } from './local-server.ts';
import { startHttp } from './local-server.ts';

/** A self-signed certificate for `localhost` only (no IP in its names). */
function selfSigned(dir: string, name: string): { cert: string; key: string } {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
    ],
    { cwd: dir, stdio: 'pipe' },
  );
  return {
    cert: readFileSync(join(dir, `${name}.pem`), 'utf8'),
    key: readFileSync(join(dir, `${name}.key`), 'utf8'),
  };
}

async function startHttps(tls: { cert: string; key: string }, body: string, location?: string) {
  const server = createServer(tls, (req, res) => {
    seen.push(req.headers.authorization);
    if (location) res.writeHead(302, { location }).end();
    else res.end(body);
  });
  const seen: (string | undefined)[] = [];
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { port, seen, close };
}

async function failure(promise: Promise<unknown>): Promise<DownloadError> {
  const error = await promise.then(
    () => assert.fail('expected a DownloadError'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DownloadError, String(error));
  return error;
}

const base = { connectTimeoutMs: 5000, readTimeoutMs: 5000, maxRedirects: 2, maxBytes: 1 << 20 };
// localhost is pinned to 127.0.0.1 by the policy's resolver: no DNS involved
const policy = new OutboundPolicy(['127.0.0.0/8'], { resolve: async () => ['127.0.0.1'] });

describe('download over https (default CA store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-net-'));
  const trusted = selfSigned(dir, 'trusted');
  const untrusted = selfSigned(dir, 'untrusted');
  let good: Awaited<ReturnType<typeof startHttps>>;
  let bad: Awaited<ReturnType<typeof startHttps>>;
  let plain: LocalServer;
  let redirecting: Awaited<ReturnType<typeof startHttps>>;

  before(async () => {
    // what an operator does by adding a CA to the system store
    setDefaultCACertificates([...getCACertificates('default'), trusted.cert]);
    good = await startHttps(trusted, 'over tls');
    bad = await startHttps(untrusted, 'never read');
    plain = await startHttp((_req, res) => res.end('plain'));
    redirecting = await startHttps(trusted, '', `${plain.origin}/x`);
  });
  after(async () => {
    await Promise.all([good.close(), bad.close(), plain.close(), redirecting.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('downloads from a server whose certificate names the host', async () => {
    const result = await download(`https://localhost:${good.port}/pkg`, { ...base, policy });
    const chunks: Buffer[] = [];
    for await (const chunk of result.body) chunks.push(chunk as Buffer);
    assert.equal(Buffer.concat(chunks).toString(), 'over tls');
  });

  it('refuses a certificate from an unknown CA', async () => {
    const error = await failure(download(`https://localhost:${bad.port}/pkg`, { ...base, policy }));
    assert.equal(error.code, 'DOWNLOAD_TLS');
    assert.match(error.message, /not trusted/);
  });

  it('refuses a certificate that does not name the host', async () => {
    const error = await failure(download(`https://127.0.0.1:${good.port}/pkg`, { ...base, policy }));
    assert.equal(error.code, 'DOWNLOAD_TLS');
    assert.match(error.message, /ERR_TLS_CERT_ALTNAME_INVALID/);
  });

  it('drops credentials when a redirect leaves https', async () => {
    const basicAuth = { userName: 'u', password: 'p' };
    const result = await download(`https://localhost:${redirecting.port}/`, { ...base, policy, basicAuth });
    result.body.resume();
    assert.equal(result.finalUrl, `${plain.origin}/x`);
    assert.ok(redirecting.seen.at(-1)?.startsWith('Basic '));
    assert.equal(plain.requests.at(-1)?.headers.authorization, undefined);
  });
});
