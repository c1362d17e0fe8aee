import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { OutboundPolicy } from '../../src/net/address-policy.ts';
import type { DownloadOptions } from '../../src/net/download.ts';
import { download } from '../../src/net/download.ts';
import { DownloadError } from '../../src/net/errors.ts';
import type { LocalServer } from './local-server.ts';
import { closedPort, startHttp, startSilent } from './local-server.ts';

/** Records every URL the download asks the policy about. */
class RecordingPolicy extends OutboundPolicy {
  checked: string[] = [];
  override async check(url: URL): Promise<string[]> {
    this.checked.push(url.href);
    return super.check(url);
  }
}

function options(overrides: Partial<DownloadOptions> = {}): DownloadOptions {
  return {
    policy: new OutboundPolicy(['127.0.0.0/8']),
    connectTimeoutMs: 5000,
    readTimeoutMs: 5000,
    maxRedirects: 3,
    maxBytes: 1024 * 1024,
    ...overrides,
  };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function failure(promise: Promise<unknown>): Promise<DownloadError> {
  const error = await promise.then(
    () => assert.fail('expected a DownloadError'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DownloadError, String(error));
  return error;
}

const payload = randomBytes(300 * 1024);
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('download', () => {
  let files: LocalServer;
  let other: LocalServer;

  before(async () => {
    // the server that other's redirects go to; also holds the files
    other = await startHttp((req, res) => {
      if (req.url === '/file') {
        res.writeHead(200, { 'content-type': 'application/zip' });
        res.end(payload);
      } else res.writeHead(404).end();
    });
    files = await startHttp((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname;
      if (path === '/file') {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': payload.length });
        res.end(payload);
      } else if (path === '/secure') {
        if (req.headers.authorization !== basic('admin', 's3cret!')) {
          res.writeHead(401, { 'www-authenticate': 'Basic realm="pkg"' }).end();
        } else res.writeHead(200).end('secret bytes');
      } else if (path.startsWith('/hop/')) {
        // /hop/N redirects to /hop/N-1 (relative Location), /hop/0 serves the file
        const n = Number(path.slice(5));
        if (n === 0) res.writeHead(200).end(payload);
        else res.writeHead([301, 302, 303, 307, 308][n % 5], { location: `/hop/${n - 1}` }).end();
      } else if (path === '/to') {
        res.writeHead(302, { location: url.searchParams.get('u') ?? '' }).end();
      } else if (path === '/stall') {
        res.writeHead(200, { 'content-length': 1000 });
        res.write(Buffer.alloc(100));
      } else if (path === '/no-answer') {
        // keeps the request open without headers
      } else if (path === '/big-announced') {
        res.writeHead(200, { 'content-length': 5000 });
        res.end(Buffer.alloc(5000));
      } else if (path === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let i = 0; i < 10; i++) res.write(Buffer.alloc(500));
        res.end();
      } else if (path === '/status') {
        res.writeHead(Number(url.searchParams.get('s'))).end('oops');
      } else if (path === '/cut') {
        res.writeHead(200, { 'content-length': 1000 });
        res.write(Buffer.alloc(100), () => res.socket?.destroy());
      } else res.writeHead(404).end();
    });
  });
  after(async () => {
    await files.close();
    await other.close();
  });

  it('downloads the bytes with their length and type', async () => {
    const result = await download(`${files.origin}/file`, options({ accept: 'application/zip' }));
    assert.equal(result.contentLength, payload.length);
    assert.equal(result.contentType, 'application/zip');
    assert.equal(result.finalUrl, `${files.origin}/file`);
    assert.ok((await readAll(result.body)).equals(payload));
    const seen = files.requests.at(-1)!;
    assert.equal(seen.headers.accept, 'application/zip');
    assert.equal(seen.headers.authorization, undefined);
  });

  it('sends basic-auth credentials and gets the body', async () => {
    const result = await download(
      `${files.origin}/secure`,
      options({ basicAuth: { userName: 'admin', password: 's3cret!' } }),
    );
    assert.equal((await readAll(result.body)).toString(), 'secret bytes');
  });

  it('reports refused credentials as 401 without the password', async () => {
    const error = await failure(
      download(`${files.origin}/secure`, options({ basicAuth: { userName: 'admin', password: 'wrong-pw' } })),
    );
    assert.equal(error.code, 'DOWNLOAD_HTTP_STATUS');
    assert.equal(error.status, 401);
    assert.match(error.message, /401.*the server refused the credentials/);
    assert.ok(!error.message.includes('wrong-pw'));
  });

  it('takes credentials from the URI user info and never repeats them', async () => {
    const ok = await download(`http://admin:s3cret!@127.0.0.1:${files.port}/secure`, options());
    assert.equal((await readAll(ok.body)).toString(), 'secret bytes');
    assert.ok(!ok.finalUrl.includes('s3cret'));
    const error = await failure(
      download(`http://admin:hunter2@127.0.0.1:${files.port}/secure?x=1`, options()),
    );
    assert.equal(error.status, 401);
    assert.ok(!error.message.includes('hunter2'));
  });

  it('keeps credentials on same-origin redirects and drops them on another port', async () => {
    const auth = { basicAuth: { userName: 'admin', password: 's3cret!' } };
    const same = await download(`${files.origin}/to?u=/secure`, options(auth));
    assert.equal((await readAll(same.body)).toString(), 'secret bytes');

    const before = other.requests.length;
    const target = encodeURIComponent(`${other.origin}/file`);
    const moved = await download(`${files.origin}/to?u=${target}`, options(auth));
    assert.ok((await readAll(moved.body)).equals(payload));
    assert.equal(moved.finalUrl, `${other.origin}/file`);
    assert.equal(files.requests.at(-1)!.headers.authorization, basic('admin', 's3cret!'));
    assert.equal(other.requests.length, before + 1);
    assert.equal(other.requests.at(-1)!.headers.authorization, undefined);
  });

  it('follows a redirect chain within the limit, checking every hop', async () => {
    const policy = new RecordingPolicy(['127.0.0.0/8']);
    const result = await download(`${files.origin}/hop/3`, options({ policy, maxRedirects: 3 }));
    assert.ok((await readAll(result.body)).equals(payload));
    assert.equal(result.finalUrl, `${files.origin}/hop/0`);
    assert.deepEqual(
      policy.checked,
      [3, 2, 1, 0].map((n) => `${files.origin}/hop/${n}`),
    );
  });

  it('stops one redirect over the limit', async () => {
    const error = await failure(download(`${files.origin}/hop/4`, options({ maxRedirects: 3 })));
    assert.equal(error.code, 'DOWNLOAD_TOO_MANY_REDIRECTS');
    assert.match(error.message, /more than 3/);
    const none = await failure(download(`${files.origin}/hop/1`, options({ maxRedirects: 0 })));
    assert.equal(none.code, 'DOWNLOAD_TOO_MANY_REDIRECTS');
  });

  it('refuses a redirect to a private address before connecting', async () => {
    const policy = new RecordingPolicy(['127.0.0.0/8']);
    const target = encodeURIComponent('http://10.1.2.3/x');
    const error = await failure(download(`${files.origin}/to?u=${target}`, options({ policy })));
    assert.equal(error.code, 'OUTBOUND_REFUSED');
    assert.match(error.message, /10\.1\.2\.3.*add it to outbound\.allow/);
    assert.deepEqual(policy.checked.at(-1), 'http://10.1.2.3/x');
  });

  it('refuses a redirect to another scheme', async () => {
    const target = encodeURIComponent('file:///etc/passwd');
    const error = await failure(download(`${files.origin}/to?u=${target}`, options()));
    assert.equal(error.code, 'OUTBOUND_SCHEME');
  });

  it('refuses loopback when the policy does not list it', async () => {
    const error = await failure(
      download(`${files.origin}/file`, options({ policy: new OutboundPolicy([]) })),
    );
    assert.equal(error.code, 'OUTBOUND_REFUSED');
  });

  it('connects to the address the policy checked, not to a fresh DNS answer', async () => {
    // localhost resolves to 127.0.0.1 on this machine; the policy's resolver says 127.0.0.2, where
    // the only server listens: success proves the connection used the checked address
    const pinned = await startHttp((_req, res) => res.end('pinned'), '127.0.0.2');
    try {
      const policy = new OutboundPolicy(['127.0.0.0/8'], { resolve: async () => ['127.0.0.2'] });
      const result = await download(`http://localhost:${pinned.port}/x`, options({ policy }));
      assert.equal((await readAll(result.body)).toString(), 'pinned');
      assert.equal(pinned.requests[0].headers.host, `localhost:${pinned.port}`);
    } finally {
      await pinned.close();
    }
  });

  it('fails the body with a read timeout when the server stalls mid-body', async () => {
    const result = await download(`${files.origin}/stall`, options({ readTimeoutMs: 200 }));
    const error = await failure(readAll(result.body));
    assert.equal(error.code, 'DOWNLOAD_READ_TIMEOUT');
    assert.match(error.message, /after 100 bytes/);
  });

  it('times out when the server never sends headers', async () => {
    const error = await failure(download(`${files.origin}/no-answer`, options({ readTimeoutMs: 200 })));
    assert.equal(error.code, 'DOWNLOAD_READ_TIMEOUT');
  });

  it('times out on a server that accepts the connection and never speaks', async () => {
    const silent = await startSilent();
    try {
      const plain = await failure(download(`${silent.origin}/`, options({ readTimeoutMs: 200 })));
      assert.equal(plain.code, 'DOWNLOAD_READ_TIMEOUT');
      // over https the TLS handshake is part of connecting
      const tls = await failure(
        download(`https://127.0.0.1:${silent.port}/`, options({ connectTimeoutMs: 200 })),
      );
      assert.equal(tls.code, 'DOWNLOAD_CONNECT_TIMEOUT');
      assert.match(tls.message, /could not connect to https:\/\/127\.0\.0\.1/);
    } finally {
      await silent.close();
    }
  });

  it('does not count a consumer that is slow to read as a stalled server', async () => {
    const result = await download(`${files.origin}/file`, options({ readTimeoutMs: 1000 }));
    await sleep(3000); // backpressure holds the server far longer than the read timeout
    assert.ok((await readAll(result.body)).equals(payload));
  });

  it('refuses a Content-Length over the cap before reading', async () => {
    const error = await failure(download(`${files.origin}/big-announced`, options({ maxBytes: 1000 })));
    assert.equal(error.code, 'DOWNLOAD_TOO_LARGE');
    assert.match(error.message, /1000-byte limit \(Content-Length: 5000\)/);
  });

  it('fails a chunked body that grows over the cap', async () => {
    const result = await download(`${files.origin}/big-chunked`, options({ maxBytes: 1000 }));
    assert.equal(result.contentLength, undefined);
    const error = await failure(readAll(result.body));
    assert.equal(error.code, 'DOWNLOAD_TOO_LARGE');
  });

  it('accepts a body exactly at the cap', async () => {
    const result = await download(`${files.origin}/big-chunked`, options({ maxBytes: 5000 }));
    assert.equal((await readAll(result.body)).length, 5000);
  });

  for (const status of [404, 500, 403]) {
    it(`reports HTTP ${status}`, async () => {
      const error = await failure(download(`${files.origin}/status?s=${status}`, options()));
      assert.equal(error.code, 'DOWNLOAD_HTTP_STATUS');
      assert.equal(error.status, status);
      assert.match(error.message, new RegExp(`HTTP ${status}`));
      assert.ok(!error.message.includes('?s='), 'the query string is not echoed');
    });
  }

  it('reports a closed port as unreachable', async () => {
    const port = await closedPort();
    const error = await failure(download(`http://127.0.0.1:${port}/x`, options()));
    assert.equal(error.code, 'DOWNLOAD_UNREACHABLE');
    assert.match(error.message, /ECONNREFUSED/);
  });

  it('fails the body when the connection drops before the end', async () => {
    const result = await download(`${files.origin}/cut`, options());
    const error = await failure(readAll(result.body));
    assert.equal(error.code, 'DOWNLOAD_UNREACHABLE');
  });

  it('rejects a malformed URI without echoing it', async () => {
    const error = await failure(download('http://user:pw@[bad/', options()));
    assert.equal(error.code, 'DOWNLOAD_BAD_URL');
    assert.ok(!error.message.includes('pw'));
  });
});
