/**
 * Hashing a put's content on hashing threads through the shared ring: the same digests and
 * zip scan as on the event loop, whatever the chunking (chunks larger than the ring, the ring
 * wrapping many times), backpressure when the threads are behind, and a clean stop on abort.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import yazl from 'yazl';
import { createRing, RingWriter, ringReader } from '../../../src/store/blobs/byte-ring.ts';
import { HashJobs, type HashPlan } from '../../../src/store/blobs/hash-jobs.ts';
import { createStreamHasher, THREAD_THRESHOLD } from '../../../src/store/blobs/stream-hasher.ts';

const MiB = 2 ** 20;

async function storedZip(image: Buffer): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('tosca_definitions_version: x\n'), 'Definitions/vnfd.yaml');
  // A stream: sizes in a data descriptor, as most zip tools write them.
  zip.addReadStream(Readable.from([image]), 'Files/images/disk.img', { compress: false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function feed(
  hasher: ReturnType<typeof createStreamHasher>,
  content: Buffer,
  sizes: number[],
): Promise<void> {
  let at = 0;
  for (let i = 0; at < content.length; i++) {
    const n = sizes[i % sizes.length];
    // The caller may reuse its chunk once update returns (or its promise resolves).
    const chunk = Buffer.from(content.subarray(at, at + n));
    const waiting = hasher.update(chunk);
    if (waiting) await waiting;
    chunk.fill(0);
    at += n;
  }
}

describe('stream hasher', () => {
  test('threads give the same digests and zip scan as the event loop', async () => {
    const image = randomBytes(21 * MiB);
    const zip = await storedZip(image);
    const plan: HashPlan = { digests: ['sha-512', 'sha-256'], zipScan: {} };
    const inline = new HashJobs(plan);
    inline.update(zip);
    const expected = inline.results();
    assert.equal(expected.digests['sha-512'], createHash('sha512').update(zip).digest('hex'));
    assert.equal(
      expected.zipScan?.entries[0].digests['sha-256'],
      createHash('sha256').update(image).digest('hex'),
    );
    for (const sizes of [[65536], [3 * 8 * MiB + 5], [1, 1000, 70_000]]) {
      const hasher = createStreamHasher(plan, { sizeHint: zip.length });
      await feed(hasher, zip, sizes);
      assert.deepEqual(await hasher.finish(), expected, `chunks of ${sizes.join(',')}`);
    }
  });

  test('the same digests whatever the size hint (event loop or threads)', async () => {
    const content = randomBytes(1000);
    const expected = createHash('sha512').update(content).digest('hex');
    for (const sizeHint of [1000, undefined, THREAD_THRESHOLD]) {
      const hasher = createStreamHasher({ digests: ['sha-512'] }, { sizeHint });
      await feed(hasher, content, [100]);
      assert.deepEqual((await hasher.finish()).digests, { 'sha-512': expected });
    }
  });

  test('abort stops the threads; later updates throw', async () => {
    const hasher = createStreamHasher({ digests: ['sha-512'] }, {});
    await feed(hasher, randomBytes(20 * MiB), [MiB]);
    hasher.abort();
    assert.throws(() => hasher.update(Buffer.alloc(16 * MiB)));
  });

  test('ring: a slow reader holds the writer back, every byte arrives in order', async () => {
    const ring = createRing(1024, 1);
    const writer = new RingWriter(ring);
    const reader = ringReader(ring, 0);
    const content = randomBytes(5000);
    // Nothing read yet: the first 1024 bytes fit, the rest has to wait for room.
    assert.equal(writer.write(content.subarray(0, 1024)), undefined);
    const waiting = writer.write(content.subarray(1024, 3000));
    assert.ok(waiting instanceof Promise);
    let done = false;
    const writing = (async () => {
      await waiting;
      const rest = writer.write(content.subarray(3000));
      if (rest) await rest;
      writer.end();
      done = true;
    })();
    // Reader and writer share this thread here: read what is there, let the writer run, repeat.
    const got: Buffer[] = [];
    const take = (bytes: Buffer) => got.push(Buffer.from(bytes));
    while (!done) {
      assert.equal(reader.drain(take, { slice: 100, block: false }), 'empty');
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await writing;
    assert.equal(reader.drain(take), 'ended');
    assert.deepEqual(Buffer.concat(got), content);
  });

  test('ring: an aborted writer stops its readers', () => {
    const ring = createRing(64, 2);
    const writer = new RingWriter(ring);
    writer.write(Buffer.alloc(10));
    writer.abort();
    assert.equal(
      ringReader(ring, 1).drain(() => {}),
      'aborted',
    );
    assert.throws(() => writer.write(Buffer.alloc(1)), /aborted/);
  });
});
