/** The streaming multipart reader (chunks split anywhere) and the Range parser. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundaryOf, multipartFile } from '../../../src/http/routes/vnfpkgm/multipart.ts';
import { parseRange } from '../../../src/http/routes/vnfpkgm/range.ts';
import type { ApiError } from '../../../src/sol/problem.ts';

const B = 'xYz-boundary';
const FILE = Buffer.from(`PK\r\n--${B.slice(0, 5)} not the delimiter \r\n-- ${'z'.repeat(300)}\r\n`);
const BODY = Buffer.concat([
  Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="meta"\r\n\r\n{"a":1}\r\n`),
  Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="p.zip"\r\n\r\n`),
  FILE,
  Buffer.from(`\r\n--${B}\r\nContent-Disposition: form-data; name="after"\r\n\r\nx\r\n--${B}--\r\n`),
]);

async function read(chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  async function* source() {
    yield* chunks;
  }
  for await (const c of multipartFile(source(), B)) out.push(c);
  return Buffer.concat(out);
}

test('multipart: the file part, whatever the chunking', async () => {
  assert.deepEqual(await read([BODY]), FILE);
  for (const size of [1, 2, 3, 7, 13, 64]) {
    const chunks: Buffer[] = [];
    for (let i = 0; i < BODY.length; i += size) chunks.push(BODY.subarray(i, i + size));
    assert.deepEqual(await read(chunks), FILE, `chunks of ${size}`);
  }
});

test('multipart: no file part, truncated body, boundary parameter', async () => {
  const noFile = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--${B}--\r\n`);
  await assert.rejects(read([noFile]), (e: ApiError) => e.status === 400);
  await assert.rejects(read([BODY.subarray(0, BODY.indexOf(FILE) + 20)]), (e: ApiError) => e.status === 400);
  assert.equal(boundaryOf(`multipart/form-data; boundary="${B}"`), B);
  assert.equal(boundaryOf(`multipart/form-data; boundary=${B}; charset=utf-8`), B);
  assert.throws(
    () => boundaryOf('multipart/form-data'),
    (e: ApiError) => e.status === 400,
  );
});

test('Range: single, suffix, open, clamped; unsatisfiable 416; several 400; malformed ignored', () => {
  assert.equal(parseRange(undefined, 100), undefined);
  assert.deepEqual(parseRange('bytes=0-0', 100), { start: 0, end: 0 });
  assert.deepEqual(parseRange('bytes=-10', 100), { start: 90, end: 99 });
  assert.deepEqual(parseRange('bytes=-1000', 100), { start: 0, end: 99 });
  assert.deepEqual(parseRange('bytes=5-', 100), { start: 5, end: 99 });
  assert.deepEqual(parseRange('bytes=5-500', 100), { start: 5, end: 99 });
  assert.throws(
    () => parseRange('bytes=100-', 100),
    (e: ApiError) => e.status === 416 && e.headers['Content-Range'] === 'bytes */100',
  );
  assert.throws(
    () => parseRange('bytes=-0', 100),
    (e: ApiError) => e.status === 416,
  );
  assert.throws(
    () => parseRange('bytes=0-1,3-4', 100),
    (e: ApiError) => e.status === 400,
  );
  assert.equal(parseRange('bytes=9-3', 100), undefined);
  assert.equal(parseRange('bytes=x', 100), undefined);
  assert.equal(parseRange('lines=1-2', 100), undefined);
});
