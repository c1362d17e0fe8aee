/**
 * `bosun blobs migrate --to s3` on moto: a single node's blob folder copied into the bucket,
 * verified, and a second run that finds everything there. No database is involved (the command
 * copies blobs key for key), so it runs once, not per dialect.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { FsBlobStore } from '../../src/store/blobs/fs-store.ts';
import { patternStream } from '../store/blobs/streams.ts';
import { MOTO_CREDENTIALS, type MotoServer, startMoto } from '../support/moto.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;
const exec = promisify(execFile);
const MiB = 2 ** 20;
const BUCKET = 'migrated';
const PREFIX = 'bosun/';

async function bosun(args: string[], env: Record<string, string>) {
  try {
    const r = await exec(BOSUN, args, { env: { PATH: process.env.PATH, ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const sha256 = async (stream: AsyncIterable<Uint8Array>) => {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest('hex');
};

describe('bosun blobs migrate --to s3 (moto)', () => {
  let moto: MotoServer;
  let folder: FsBlobStore;
  let env: Record<string, string>;
  const keys = ['packages/a/package.zip', 'packages/b/package.zip', 'packages/c/extra/notes.txt'];

  before(async () => {
    moto = await startMoto([BUCKET]);
    const dir = tempDir('bosun-migrate-');
    folder = new FsBlobStore(join(dir, 'blobs'));
    await folder.put(keys[0], patternStream(3 * MiB, 1), { maxBytes: 64 * MiB });
    // Larger than a part: goes up as a multipart upload.
    await folder.put(keys[1], patternStream(12 * MiB + 5, 2), { maxBytes: 64 * MiB });
    await folder.put(keys[2], Readable.from([Buffer.from('notes\n')]), { maxBytes: 64 * MiB });
    // A put that died with its process: a temp file, never a blob to copy.
    await writeFile(join(dir, 'blobs', 'packages', 'a', '.package.zip.1234.part'), 'half');
    env = {
      BOSUN_BLOBS_DIR: folder.dir,
      BOSUN_BLOBS_CACHE_DIR: join(dir, 'cache'),
      BOSUN_BLOBS_S3_BUCKET: BUCKET,
      BOSUN_BLOBS_S3_PREFIX: PREFIX,
      BOSUN_BLOBS_S3_ENDPOINT: moto.endpoint,
      BOSUN_BLOBS_S3_ACCESS_KEY_ID: MOTO_CREDENTIALS.accessKeyId,
      BOSUN_BLOBS_S3_SECRET_ACCESS_KEY: MOTO_CREDENTIALS.secretAccessKey,
    };
  });

  after(() => moto?.stop());

  const objectDigest = async (key: string) => {
    const object = await moto.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: PREFIX + key }));
    return sha256(object.Body as Readable);
  };

  test('copies what is missing or different, skips what is there, and verifies every copy', async () => {
    // Already there with the same bytes: left alone. Same size, other bytes: copied over.
    await moto.client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: PREFIX + keys[2], Body: Buffer.from('notes\n') }),
    );
    await moto.client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: PREFIX + keys[0], Body: Buffer.alloc(3 * MiB, 9) }),
    );

    const run = await bosun(['blobs', 'migrate', '--to', 's3'], env);
    assert.equal(run.code, 0, run.stderr);
    // A progress line per blob, and the summary.
    assert.match(run.stderr, /^\[1\/3\] packages\/a\/package\.zip \(3\.0 MiB\): copied$/m);
    assert.match(run.stderr, /^\[2\/3\] packages\/b\/package\.zip \(12\.0 MiB\): copied$/m);
    assert.match(run.stderr, /^\[3\/3\] packages\/c\/extra\/notes\.txt \(6 B\): already there$/m);
    assert.match(
      run.stdout,
      /→ s3:\/\/migrated\/bosun\/: 2 copied \(15\.0 MiB\), 1 already there, 0 failed\n$/,
    );

    const listed = await moto.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: PREFIX }));
    assert.deepEqual(listed.Contents?.map((o) => o.Key).sort(), keys.map((k) => PREFIX + k).sort());
    for (const key of keys) {
      assert.equal(await objectDigest(key), await sha256(await folder.get(key)), key);
    }
  });

  test('a second run finds everything there and copies nothing', async () => {
    const run = await bosun(['blobs', 'migrate', '--to', 's3', '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.deepEqual(
      { copied: summary.copied, present: summary.present, failed: summary.failed, bytes: summary.bytes },
      { copied: 0, present: 3, failed: [], bytes: 0 },
    );
    assert.equal(summary.to, `s3://${BUCKET}/${PREFIX}`);
  });

  test('a bucket that does not exist: every blob reported failed, exit 1, nothing claimed', async () => {
    const run = await bosun(['blobs', 'migrate', '--to', 's3'], {
      ...env,
      BOSUN_BLOBS_S3_BUCKET: 'no-such-bucket',
    });
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^\[1\/3\] packages\/a\/package\.zip FAILED: The blob store is unavailable: S3 upload of packages\/a\/package\.zip failed \(HTTP 404 NoSuchBucket\)/m,
    );
    assert.match(run.stdout, /0 copied \(0 B\), 0 already there, 3 failed\n$/);
    assert.match(
      run.stderr,
      /bosun: error: 3 blob\(s\) not copied: run the command again once the cause is fixed\n$/,
    );
  });

  test('only s3 is a migration target', async () => {
    const run = await bosun(['blobs', 'migrate', '--to', 'fs'], env);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /--to fs: the blobs can be migrated to s3 only/);
  });
});
