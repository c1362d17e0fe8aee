/**
 * Crash recovery with real processes: `bin/bosun serve` as a subprocess, killed with SIGKILL
 * in the middle of an upload (a slowly streamed body) or with a package in PROCESSING; a new
 * server on the same database and blob folder must leave nothing stuck: the interrupted upload
 * is CREATED with "interrupted" and its partial blob gone; the processing job runs again.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DIALECTS, type TestDialect } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { kill9, newServerEnv, serveProcess } from '../../support/processes.ts';
import { startTestServer } from '../../support/server.ts';
import {
  createPkg,
  type PkgInfo,
  putZip,
  SETTLED,
  SMALL_SAMPLE,
  sample,
  V1,
  V2,
  V2_HEADERS,
} from './support.ts';

const newEnv = (dialect: TestDialect) => newServerEnv(dialect, 'bosun-recovery-');

async function settle(url: string, id: string): Promise<PkgInfo> {
  for (let i = 0; i < 400; i++) {
    const res = await http<PkgInfo>(url, 'GET', `${V2}/${id}`, { headers: V2_HEADERS });
    if (SETTLED.includes(res.body.onboardingState)) return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `package ${id} stayed ${JSON.stringify((await http<PkgInfo>(url, 'GET', `${V1}/${id}`)).body.onboardingState)}`,
  );
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

for (const dialect of DIALECTS) {
  describe(`crash recovery on ${dialect}`, () => {
    test('killed during an upload: CREATED with "interrupted" after restart, no partial blob', async () => {
      const env = await newEnv(dialect);
      const first = await serveProcess(env, 'all');
      const pkg = await createPkg(first.url);
      // Stream the first half of the zip, then stall: the server is UPLOADING.
      const zip = sample(SMALL_SAMPLE);
      const port = new URL(first.url).port;
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: `${V1}/${pkg.id}/package_content`,
        headers: { 'content-type': 'application/zip', 'transfer-encoding': 'chunked' },
      });
      req.on('error', () => {});
      req.write(zip.subarray(0, zip.length >> 1));
      for (let i = 0; i < 100; i++) {
        const state = (await http<PkgInfo>(first.url, 'GET', `${V1}/${pkg.id}`)).body.onboardingState;
        if (state === 'UPLOADING') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(
        (await http<PkgInfo>(first.url, 'GET', `${V1}/${pkg.id}`)).body.onboardingState,
        'UPLOADING',
      );
      await kill9(first.child);
      req.destroy();
      const second = await serveProcess(env, 'all');
      try {
        const settled = await settle(second.url, pkg.id);
        assert.equal(settled.onboardingState, 'ERROR');
        assert.match(settled.onboardingFailureDetails?.detail ?? '', /interrupted/);
        assert.deepEqual(
          (await filesUnder(join(env.blobsDir, 'packages'))).filter((f) => f === 'package.zip'),
          [],
        );
        // And the package can be uploaded again.
        assert.equal((await putZip(second.url, pkg.id, zip)).status, 202);
        assert.equal((await settle(second.url, pkg.id)).onboardingState, 'ONBOARDED');
      } finally {
        await kill9(second.child);
      }
    });

    test('killed with a package in PROCESSING: the job runs again after restart and onboards', async () => {
      const env = await newEnv(dialect);
      // An api-only replica accepts the upload and queues the job; nobody processes it yet.
      const first = await serveProcess(env, 'api');
      const pkg = await createPkg(first.url);
      assert.equal((await putZip(first.url, pkg.id, sample(SMALL_SAMPLE))).status, 202);
      assert.equal(
        (await http<PkgInfo>(first.url, 'GET', `${V1}/${pkg.id}`)).body.onboardingState,
        'PROCESSING',
      );
      await kill9(first.child);
      const second = await serveProcess(env, 'all');
      try {
        assert.equal((await settle(second.url, pkg.id)).onboardingState, 'ONBOARDED');
      } finally {
        await kill9(second.child);
      }
    });
  });
}

for (const dialect of DIALECTS) {
  test(`a PROCESSING job whose worker died (expired running lease) is taken over on ${dialect}`, async () => {
    const server = await startTestServer(dialect, { config: { worker: { pollIntervalMs: 50 } } });
    try {
      const pkg = await createPkg(server.url);
      const { Readable } = await import('node:stream');
      await server.context.blobs.put(
        `packages/${pkg.id}/package.zip`,
        Readable.from([sample(SMALL_SAMPLE)]),
        {
          maxBytes: 1 << 30,
          digests: ['sha-512'],
        },
      );
      // What a worker killed in the middle of validation leaves behind.
      await server.context.db.kysely
        .updateTable('vnf_packages')
        .set({
          onboarding_state: 'PROCESSING',
          job_state: 'running',
          lease_owner: 'dead-host:1:gone',
          lease_until: new Date(Date.now() - 1000).toISOString(),
          attempts: 1,
        })
        .where('id', '=', pkg.id)
        .execute();
      server.context.onboarding.wake();
      const settled = await settle(server.url, pkg.id);
      assert.equal(settled.onboardingState, 'ONBOARDED', JSON.stringify(settled.onboardingFailureDetails));
    } finally {
      await server.close();
    }
  });
}
