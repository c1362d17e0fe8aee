/**
 * The S3 blob store as a cluster uses it, on each S3 implementation (moto, s3rver): two
 * `bosun serve` processes — replicas sharing one PostgreSQL and one bucket — take a 1 GiB
 * package through the real upload path (a multipart upload, streamed), and either serves it back
 * whole and by ranges; then the store goes down for 30 s in the middle of an upload, and the
 * upload must fail cleanly and succeed once the store is back.
 *
 * PostgreSQL only: the subject is the object store, and replicas share a database the way a
 * cluster does (SQLite's single file is no cluster's); the blob store itself runs on both
 * dialects in the other tests of this folder.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createPkg, type PkgInfo, V1, V2, V2_HEADERS } from '../../http/vnfpkgm/support.ts';
import { http, isProblem } from '../../support/http.ts';
import { newServerEnv, type Served, serveProcess, stop } from '../../support/processes.ts';
import { tempDir } from '../../support/temp.ts';
import { largePackage, putStream } from './large-package.ts';
import { S3_BACKENDS } from './s3-backends.ts';
import { digestOf } from './streams.ts';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
/** Bosun's multipart part size (s3-store.ts). */
const PART_SIZE = 8 * MiB;
const PREFIX = 'bosun/';
const OUTAGE_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls until onboarding ended; a GiB is downloaded into a replica's cache first, which on a
 * busy machine takes longer than the package tests' usual wait.
 */
async function waitOnboarded(base: string, id: string, deadlineMs = 240_000): Promise<PkgInfo> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await http<PkgInfo>(base, 'GET', `${V2}/${id}`, { headers: V2_HEADERS });
    if (res.status !== 200) throw new Error(`show: ${res.status} ${res.text}`);
    if (!['UPLOADING', 'PROCESSING'].includes(res.body.onboardingState)) return res.body;
    if (Date.now() > deadline) throw new Error(`package ${id} still ${res.body.onboardingState}`);
    await sleep(250);
  }
}

/** GET with a Range header: status, body bytes and the problem, if any. */
async function getRange(base: string, id: string, range: string) {
  const res = await fetch(`${base}${V1}/${id}/package_content`, { headers: { Range: range } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes };
}

// One store after the other: a GiB through each at once would double the load the other test
// files share.
describe('S3 blob stores', () => {
  for (const kind of S3_BACKENDS) {
    describe(`S3 blob store on ${kind.name}, two replicas`, () => {
      let backend: Awaited<ReturnType<typeof kind.start>>;
      let first: Served;
      let second: Served;

      before(async () => {
        backend = await kind.start();
        const env = await newServerEnv('postgres', `bosun-s3-${kind.name}-`);
        const s3 = {
          BOSUN_BLOBS_BACKEND: 's3',
          BOSUN_BLOBS_S3_BUCKET: backend.bucket,
          BOSUN_BLOBS_S3_PREFIX: PREFIX,
          BOSUN_BLOBS_S3_ENDPOINT: backend.endpoint,
          BOSUN_BLOBS_S3_ACCESS_KEY_ID: backend.credentials.accessKeyId,
          BOSUN_BLOBS_S3_SECRET_ACCESS_KEY: backend.credentials.secretAccessKey,
          // Bounded, and short enough that an upload into a hung store fails within the outage.
          BOSUN_BLOBS_S3_CONNECT_TIMEOUT_MS: '1000',
          BOSUN_BLOBS_S3_MAX_ATTEMPTS: '2',
          BOSUN_LOG_ACCESS_LOG: 'false',
          // Not the 1 s of the crash tests: no replica dies here, and on a busy machine a renewal
          // late by a second would hand a streaming GiB to the other replica's recovery.
          BOSUN_WORKER_LEASE_MS: '15000',
        };
        // Each replica has its own node-local cache: only the bucket is shared. The first takes
        // the 1 GiB upload: moto completes a multipart upload of a GiB silently for about 15 s,
        // so its idle timeout must be longer than that. The second takes the upload the outage
        // cuts: short enough that it fails before the store is back.
        const dir = tempDir('bosun-s3-cache-');
        [first, second] = await Promise.all([
          serveProcess(env, 'all', {
            ...s3,
            BOSUN_BLOBS_CACHE_DIR: join(dir, 'first'),
            BOSUN_BLOBS_S3_IDLE_TIMEOUT_MS: '60000',
          }),
          serveProcess(env, 'all', {
            ...s3,
            BOSUN_BLOBS_CACHE_DIR: join(dir, 'second'),
            BOSUN_BLOBS_S3_IDLE_TIMEOUT_MS: '4000',
          }),
        ]);
      });

      after(async () => {
        await Promise.all([first, second].filter(Boolean).map((s) => stop(s.child)));
        await backend?.stop();
      });

      const objectsOf = async (id: string) => {
        const listed = await backend.client.send(
          new ListObjectsV2Command({ Bucket: backend.bucket, Prefix: `${PREFIX}packages/${id}/` }),
        );
        return (listed.Contents ?? []).map((object) => object.Key);
      };

      test('a 1 GiB package goes up in parts through one replica and comes back by ranges from the other', {
        timeout: 400_000,
      }, async () => {
        const middle = 512 * MiB + 12345;
        const pkg = await createPkg(first.url);
        const upload = largePackage(randomUUID(), GiB, { probes: [0, middle], partSize: PART_SIZE });
        const answer = await putStream(`${first.url}${V1}/${pkg.id}/package_content`, upload.body).catch(
          async (err: Error) => {
            await sleep(1000);
            throw new Error(`${err.message}; the server said:\n${first.output().slice(-4000)}`);
          },
        );
        assert.equal(answer.status, 202, `${JSON.stringify(answer.body)}\n${first.output().slice(-3000)}`);
        const sent = await upload.done;

        // One object, written as a multipart upload (the store saw every part), whose ETag — the
        // store's own digest of what it received — is the one of the bytes sent.
        const objectKey = `${PREFIX}packages/${pkg.id}/package.zip`;
        const parts = Math.ceil(sent.size / PART_SIZE);
        assert.deepEqual(
          [...new Set(backend.partsOf(objectKey))],
          Array.from({ length: parts }, (_, i) => i + 1),
        );
        const head = await backend.client.send(
          new HeadObjectCommand({ Bucket: backend.bucket, Key: objectKey }),
        );
        assert.equal(head.ContentLength, sent.size);
        assert.equal(head.ETag, kind.multipartETag(sent.partMd5s, sent.md5));

        // Onboarded by whichever replica claimed it; the digest Bosun recorded is the one sent.
        const settled = await waitOnboarded(second.url, pkg.id);
        assert.equal(settled.onboardingState, 'ONBOARDED', JSON.stringify(settled.onboardingFailureDetails));
        assert.equal(settled.checksum?.hash, sent.sha512);

        // The other replica serves ranges: the first bytes, the middle of a part deep inside, a
        // suffix, and past the end.
        const firstBytes = await getRange(second.url, pkg.id, 'bytes=0-63');
        assert.equal(firstBytes.status, 206);
        assert.equal(firstBytes.headers.get('content-range'), `bytes 0-63/${sent.size}`);
        assert.deepEqual(firstBytes.bytes, sent.probes.get(0));
        const inside = await getRange(second.url, pkg.id, `bytes=${middle}-${middle + 63}`);
        assert.equal(inside.status, 206);
        assert.deepEqual(inside.bytes, sent.probes.get(middle));
        const suffix = await getRange(second.url, pkg.id, 'bytes=-64');
        assert.equal(suffix.status, 206);
        assert.equal(
          suffix.headers.get('content-range'),
          `bytes ${sent.size - 64}-${sent.size - 1}/${sent.size}`,
        );
        assert.deepEqual(suffix.bytes, sent.tail);
        const beyond = await http(second.url, 'GET', `${V1}/${pkg.id}/package_content`, {
          headers: { Range: `bytes=${sent.size}-` },
        });
        assert.ok(isProblem(beyond, 416), beyond.text);
        assert.equal(beyond.headers.get('content-range'), `bytes */${sent.size}`);
      });

      test(`the store down for 30 s during an upload (it ${kind.outage}): a clear 503, nothing recorded, a deletion still done, and the same package uploads once it is back`, {
        timeout: 400_000,
      }, async () => {
        const pkg = await createPkg(first.url);
        const spare = await createPkg(first.url);
        // Paced, so that it is still streaming when the store goes down.
        const upload = largePackage(randomUUID(), 512 * MiB, { pauseMsPerMiB: 20 });
        const answered = putStream(`${second.url}${V1}/${pkg.id}/package_content`, upload.body).catch(
          async (err: Error) => {
            // Its last lines may still be on their way.
            await sleep(1000);
            throw new Error(`${err.message}; the server said:\n${second.output().slice(-4000)}`);
          },
        );
        while (upload.sent() < 3 * PART_SIZE) await sleep(50);
        await backend.goDown();
        const downAt = Date.now();
        let answer: Awaited<typeof answered>;
        try {
          answer = await answered;
          // A package deletion needs only the database: it succeeds, its blob is the sweep's.
          const deleted = await http(second.url, 'DELETE', `${V1}/${spare.id}`);
          assert.equal(deleted.status, 204, deleted.text);
        } finally {
          await sleep(Math.max(0, OUTAGE_MS - (Date.now() - downAt)));
          await backend.comeBack();
        }

        assert.equal(answer.status, 503, JSON.stringify(answer.body));
        assert.match(answer.contentType, /^application\/problem\+json/);
        assert.equal(typeof answer.body, 'object');
        const problem = answer.body as { status?: number; detail?: string };
        assert.equal(problem.status, 503);
        assert.match(problem.detail ?? '', /blob store is unavailable: S3 upload of packages\/.+ failed/);
        assert.doesNotMatch(problem.detail ?? '', /127\.0\.0\.1/, 'the store address stays in the log');

        // Back to CREATED with the reason, and nothing claims content: no digest, no size, no object.
        const v1 = await http<PkgInfo & { checksum?: unknown }>(second.url, 'GET', `${V1}/${pkg.id}`);
        assert.equal(v1.body.onboardingState, 'CREATED');
        assert.equal(v1.body.checksum, undefined);
        const v2 = await http<PkgInfo>(first.url, 'GET', `${V2}/${pkg.id}`, { headers: V2_HEADERS });
        assert.equal(v2.body.onboardingFailureDetails?.status, 503);
        assert.deepEqual(await objectsOf(pkg.id), []);
        assert.equal((await http(first.url, 'GET', `${V1}/${spare.id}`)).status, 404);
        const content = await http(second.url, 'GET', `${V1}/${pkg.id}/package_content`);
        assert.ok(isProblem(content, 409), content.text);

        // The store is back: the same package uploads and onboards.
        const again = largePackage(randomUUID(), 24 * MiB);
        const retried = await putStream(`${first.url}${V1}/${pkg.id}/package_content`, again.body);
        assert.equal(retried.status, 202, JSON.stringify(retried.body));
        const settled = await waitOnboarded(first.url, pkg.id);
        assert.equal(settled.onboardingState, 'ONBOARDED', JSON.stringify(settled.onboardingFailureDetails));
        assert.equal(settled.checksum?.hash, (await again.done).sha512);
        assert.deepEqual(await objectsOf(pkg.id), [`${PREFIX}packages/${pkg.id}/package.zip`]);
        const object = await backend.client.send(
          new GetObjectCommand({ Bucket: backend.bucket, Key: `${PREFIX}packages/${pkg.id}/package.zip` }),
        );
        assert.equal((await digestOf(object.Body as Readable)).sha512, (await again.done).sha512);
      });
    });
  }
});
