/**
 * A valid VNF package of any size, made while it is sent: a one-file VNFD and a stored (not
 * deflated) image of `imageBytes` generated MiB by MiB, never all in memory. What was sent is
 * measured on the way out — its size, SHA-512 and the bytes at chosen offsets — so that a test
 * can check what the blob store serves back without keeping the package anywhere. Also the
 * streaming HTTP PUT that sends it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Readable, Transform } from 'node:stream';
import yazl from 'yazl';

const MiB = 2 ** 20;
const PROBE_BYTES = 64;

export interface SentPackage {
  size: number;
  sha512: string;
  md5: string;
  /** The MD5 of each `partSize` bytes, as a multipart upload in such parts would have them. */
  partMd5s: Buffer[];
  /** The 64 bytes sent at each probe offset (those the package reached). */
  probes: Map<number, Buffer>;
  /** The last 64 bytes. */
  tail: Buffer;
}

export interface LargePackage {
  body: Readable;
  /** Bytes sent so far. */
  sent(): number;
  /** What was sent, once the body ended. */
  done: Promise<SentPackage>;
}

/** The image: 1 MiB chunks of one random block, each stamped with its number (no two alike). */
function imageStream(bytes: number, pauseMs: number): Readable {
  const block = randomBytes(MiB);
  let index = 0;
  let left = bytes;
  return new Readable({
    highWaterMark: MiB,
    read() {
      if (left === 0) {
        this.push(null);
        return;
      }
      const chunk = Buffer.from(block.subarray(0, Math.min(left, MiB)));
      if (chunk.length >= 4) chunk.writeUInt32BE(index++, 0);
      left -= chunk.length;
      if (pauseMs > 0) setTimeout(() => this.push(chunk), pauseMs);
      else this.push(chunk);
    },
  });
}

export function largePackage(
  vnfdId: string,
  imageBytes: number,
  options: { probes?: number[]; pauseMsPerMiB?: number; partSize?: number } = {},
): LargePackage {
  const vnfd = readFileSync(new URL('../../http/vnfpkgm/single-vnfd.yaml', import.meta.url), 'utf8').replace(
    'VNFD_ID',
    vnfdId,
  );
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(vnfd), 'single.yaml');
  zip.addReadStream(imageStream(imageBytes, options.pauseMsPerMiB ?? 0), 'Files/images/large.img', {
    compress: false,
    size: imageBytes,
  });
  zip.end();

  const hash = createHash('sha512');
  const md5 = createHash('md5');
  const partSize = options.partSize ?? 8 * MiB;
  const partMd5s: Buffer[] = [];
  let part = createHash('md5');
  let inPart = 0;
  const wanted = [...(options.probes ?? [])];
  const probes = new Map<number, Buffer>();
  let offset = 0;
  let tail = Buffer.alloc(0);
  let resolveDone: (sent: SentPackage) => void = () => {};
  const done = new Promise<SentPackage>((resolve) => {
    resolveDone = resolve;
  });
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      md5.update(chunk);
      for (let from = 0; from < chunk.length; ) {
        const take = Math.min(partSize - inPart, chunk.length - from);
        part.update(chunk.subarray(from, from + take));
        inPart += take;
        from += take;
        if (inPart === partSize) {
          partMd5s.push(part.digest());
          part = createHash('md5');
          inPart = 0;
        }
      }
      for (const at of wanted) {
        // A probe may straddle chunks: gather its bytes from each.
        const from = Math.max(at, offset);
        const to = Math.min(at + PROBE_BYTES, offset + chunk.length);
        if (from >= to) continue;
        const piece = chunk.subarray(from - offset, to - offset);
        probes.set(at, Buffer.concat([probes.get(at) ?? Buffer.alloc(0), piece]));
      }
      offset += chunk.length;
      tail = Buffer.concat([tail, chunk.subarray(Math.max(0, chunk.length - PROBE_BYTES))]).subarray(
        -PROBE_BYTES,
      );
      callback(null, chunk);
    },
    flush(callback) {
      if (inPart > 0) partMd5s.push(part.digest());
      resolveDone({
        size: offset,
        sha512: hash.digest('hex'),
        md5: md5.digest('hex'),
        partMd5s,
        probes,
        tail,
      });
      callback();
    },
  });
  return { body: (zip.outputStream as Readable).pipe(measure), sent: () => offset, done };
}

export interface PutAnswer {
  status: number;
  contentType: string;
  body: { status?: number; detail?: string } | string;
}

/**
 * PUTs `body` chunked to `url` as application/zip, and resolves with the answer as soon as it
 * comes — also when the server answers before the body is all sent (a refused upload): the
 * rest of the body is then dropped.
 */
export function putStream(url: string, body: Readable): Promise<PutAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: { 'content-type': 'application/zip' } });
    // A server that answers before reading the whole body may close while it is still being
    // sent: the write fails, yet the answer may be there to read.
    req.on('error', (err) => setTimeout(() => reject(err), 1000));
    req.on('response', (res) => {
      body.unpipe(req);
      body.destroy();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const contentType = res.headers['content-type'] ?? '';
        resolve({
          status: res.statusCode ?? 0,
          contentType,
          body: contentType.includes('json') && text ? JSON.parse(text) : text,
        });
        req.destroy();
      });
    });
    body.pipe(req);
  });
}
