/**
 * Onboarding work stops when its lease is lost: a URI download stops reading (its connection is
 * closed) and a streamed upload stops reading its body, and neither writes anything after the
 * process that took the job over has it — the package stays as its new holder has it, with no
 * blob written.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { failure } from '../../src/packages/failure.ts';
import { packageBlobKey } from '../../src/packages/package-record.ts';
import { storeUpload, UploadSupersededError } from '../../src/packages/store-upload.ts';
import { createPkg, V1 } from '../http/vnfpkgm/support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const TAKER = 'another-process:1:abcdef';

/** An origin that sends the start of a zip and then nothing: the download stays in progress. */
async function stallingOrigin() {
  let requested: () => void = () => {};
  let closed: () => void = () => {};
  const seen = {
    requested: new Promise<void>((r) => (requested = r)),
    closed: new Promise<void>((r) => (closed = r)),
  };
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/zip' });
    res.write(Buffer.from('504b0304', 'hex'));
    res.on('close', closed);
    requested();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stall.zip` };
}

for (const dialect of DIALECTS) {
  describe(`onboarding on a lost lease, ${dialect}`, () => {
    let bosun: TestServer;
    before(async () => {
      bosun = await startTestServer(dialect, {
        config: {
          worker: { leaseMs: 1000, pollIntervalMs: 50 },
          outbound: { allow: ['127.0.0.0/8'] },
          packages: { uriReadTimeoutMs: 600_000 },
        },
      });
    });
    after(() => bosun.close());

    const row = (id: string) =>
      bosun.context.db.kysely
        .selectFrom('vnf_packages')
        .select(['onboarding_state', 'job_state', 'lease_owner'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    /** Another process takes the job over (its lease runs long: this process does not reclaim it). */
    const takeOver = (id: string) =>
      bosun.context.db.kysely
        .updateTable('vnf_packages')
        .set({ lease_owner: TAKER, lease_until: new Date(Date.now() + 3_600_000).toISOString() })
        .where('id', '=', id)
        .execute();
    async function until(what: string, check: () => Promise<boolean>): Promise<void> {
      for (let i = 0; i < 400; i++) {
        if (await check()) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.fail(`never: ${what}`);
    }

    test('a download whose lease is lost stops reading; the package stays with its new holder', async () => {
      const origin = await stallingOrigin();
      try {
        const pkg = await createPkg(bosun.url);
        const res = await http(bosun.url, 'POST', `${V1}/${pkg.id}/package_content/upload_from_uri`, {
          body: { addressInformation: origin.url },
        });
        assert.equal(res.status, 202, res.text);
        await origin.seen.requested;
        await takeOver(pkg.id);
        await origin.seen.closed;
        assert.deepEqual(
          { ...(await row(pkg.id)) },
          {
            onboarding_state: 'UPLOADING',
            job_state: 'running',
            lease_owner: TAKER,
          },
        );
        assert.equal(await bosun.context.blobs.stat(packageBlobKey(pkg.id)), undefined);
      } finally {
        origin.server.closeAllConnections();
        await new Promise((resolve) => origin.server.close(resolve));
      }
    });

    test('an upload whose lease is lost stops reading its body and records nothing', async () => {
      const { db, blobs } = bosun.context;
      const pkg = await createPkg(bosun.url);
      const body = new PassThrough();
      body.write(Buffer.from('504b0304', 'hex'));
      const storing = storeUpload({ db, blobs, maxUploadBytes: 1024 * 1024, leaseMs: 1000 }, pkg.id, body, {
        failureOf: () => failure(400, 'the upload did not complete'),
      });
      await until('the upload began', async () => (await row(pkg.id)).onboarding_state === 'UPLOADING');
      await takeOver(pkg.id);
      await assert.rejects(storing, UploadSupersededError);
      assert.equal(body.destroyed, true);
      assert.deepEqual(
        { ...(await row(pkg.id)) },
        {
          onboarding_state: 'UPLOADING',
          job_state: 'uploading',
          lease_owner: TAKER,
        },
      );
      assert.equal(await blobs.stat(packageBlobKey(pkg.id)), undefined);
    });
  });
}
