/**
 * upload_from_uri against a local HTTP server: plain, basic auth, redirect, slow (read
 * timeout), oversized, and an address the outbound policy refuses. The download runs in the
 * onboarding job; its failures bring the package back to CREATED with the reason.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createPkg, singleFilePackage, V1, waitSettled } from './support.ts';

const id = (n: number) => `5d1b5c4e-0000-4000-8000-0000000d${String(n).padStart(4, '0')}`;

async function startOrigin(): Promise<{ server: Server; base: string; zips: Record<string, Buffer> }> {
  const zips: Record<string, Buffer> = {
    '/plain.zip': await singleFilePackage(id(1)),
    '/auth.zip': await singleFilePackage(id(2)),
    '/target.zip': await singleFilePackage(id(3)),
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/auth.zip') {
      const expected = `Basic ${Buffer.from('user_1:s3cret').toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="pkgs"' }).end();
        return;
      }
    }
    if (url === '/redirect') {
      res.writeHead(302, { location: '/target.zip' }).end();
      return;
    }
    if (url === '/slow.zip') {
      // Sends a few bytes, then stalls longer than the read timeout.
      res.writeHead(200, { 'content-type': 'application/zip' });
      res.write('PK');
      return;
    }
    if (url === '/big.zip') {
      res.writeHead(200, { 'content-type': 'application/zip' });
      res.end(Buffer.alloc(1024 * 1024 + 1, 1));
      return;
    }
    const zip = zips[url];
    if (!zip) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length }).end(zip);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, zips };
}

for (const dialect of DIALECTS) {
  describe(`upload_from_uri on ${dialect}`, () => {
    let bosun: TestServer;
    let refusing: TestServer;
    let origin: Awaited<ReturnType<typeof startOrigin>>;
    before(async () => {
      origin = await startOrigin();
      const config = {
        worker: { pollIntervalMs: 50 },
        packages: { maxUploadBytes: 1024 * 1024, uriReadTimeoutMs: 300, uriConnectTimeoutMs: 1000 },
      };
      bosun = await startTestServer(dialect, { config: { ...config, outbound: { allow: ['127.0.0.0/8'] } } });
      refusing = await startTestServer(dialect, { config });
    });
    after(async () => {
      await bosun.close();
      await refusing.close();
      origin.server.closeAllConnections();
      await new Promise((resolve) => origin.server.close(resolve));
    });
    const fromUri = async (server: TestServer, body: object) => {
      const pkg = await createPkg(server.url);
      const res = await http(server.url, 'POST', `${V1}/${pkg.id}/package_content/upload_from_uri`, { body });
      return { pkg, res };
    };

    test('plain, basic auth and redirect: 202 then ONBOARDED with the checksum of the downloaded zip', async () => {
      const { createHash } = await import('node:crypto');
      const cases = [
        { body: { addressInformation: `${origin.base}/plain.zip` }, zip: '/plain.zip', vnfd: id(1) },
        {
          body: { addressInformation: `${origin.base}/auth.zip`, userName: 'user_1', password: 's3cret' },
          zip: '/auth.zip',
          vnfd: id(2),
        },
        { body: { addressInformation: `${origin.base}/redirect` }, zip: '/target.zip', vnfd: id(3) },
      ];
      for (const c of cases) {
        const { pkg, res } = await fromUri(bosun, c.body);
        assert.equal(res.status, 202);
        const settled = await waitSettled(bosun.url, pkg.id);
        assert.equal(settled.onboardingState, 'ONBOARDED', JSON.stringify(settled.onboardingFailureDetails));
        assert.equal(settled.vnfdId, c.vnfd);
        const want = createHash('sha512').update(origin.zips[c.zip]).digest('hex');
        assert.equal(settled.checksum?.hash, want);
        // Onboarded: a second upload is refused.
        const again = await http(bosun.url, 'POST', `${V1}/${pkg.id}/package_content/upload_from_uri`, {
          body: c.body,
        });
        assert.ok(isProblem(again, 409));
      }
      // Credentials in the URL work too, and are moved out of it.
      const inUrl = `${origin.base.replace('http://', 'http://user_1:s3cret@')}/auth.zip`;
      const { pkg: viaUrl } = await fromUri(bosun, { addressInformation: inUrl });
      const settled = await waitSettled(bosun.url, viaUrl.id);
      assert.equal(
        settled.onboardingState,
        'ERROR',
        'same vnfdId as the auth case: downloaded, then a duplicate',
      );
      assert.match(settled.onboardingFailureDetails?.detail ?? '', /already onboarded/);
      // Credentials are sealed at rest, never stored in clear.
      const rows = await bosun.context.db.kysely.selectFrom('vnf_packages').select('upload_source').execute();
      assert.ok(rows.every((r) => !String(r.upload_source).includes('s3cret')));
    });

    test('failures come back as ERROR (CREATED on v1) with the reason: wrong password, slow, oversized, refused address', async () => {
      const cases: [TestServer, object, RegExp][] = [
        [
          bosun,
          { addressInformation: `${origin.base}/auth.zip`, userName: 'user_1', password: 'wrong' },
          /401/,
        ],
        [bosun, { addressInformation: `${origin.base}/slow.zip` }, /stalled|slow|time/i],
        [bosun, { addressInformation: `${origin.base}/big.zip` }, /limit|large|bytes/i],
        [
          refusing,
          { addressInformation: `${origin.base}/plain.zip` },
          /refus|not allowed|loopback|private|outbound/i,
        ],
      ];
      for (const [server, body, reason] of cases) {
        const { pkg, res } = await fromUri(server, body);
        assert.equal(res.status, 202);
        const settled = await waitSettled(server.url, pkg.id);
        assert.equal(settled.onboardingState, 'ERROR');
        assert.match(settled.onboardingFailureDetails?.detail ?? '', reason);
        assert.equal(await server.context.blobs.stat(`packages/${pkg.id}/package.zip`), undefined);
      }
    });

    test('400 for an invalid URL or body, 404 for an unknown package', async () => {
      for (const body of [
        { addressInformation: 'not a url' },
        { addressInformation: 'ftp://x/y.zip' },
        {},
        { addressInformation: `${origin.base}/p`, userName: 'bad name!' },
      ]) {
        const { res } = await fromUri(bosun, body);
        assert.ok(isProblem(res, 400), JSON.stringify(body));
      }
      const res = await http(
        bosun.url,
        'POST',
        `${V1}/00000000-0000-4000-8000-000000000000/package_content/upload_from_uri`,
        {
          body: { addressInformation: `${origin.base}/plain.zip` },
        },
      );
      assert.ok(isProblem(res, 404));
    });
  });
}
