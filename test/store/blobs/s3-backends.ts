/**
 * The S3 implementations the S3 blob store is tested against, behind one shape so that a suite
 * runs on each: moto (moto_server, a separate Python process) and s3rver (JavaScript, in the
 * test's process). Each goes down its own way: moto hangs (frozen: connections accepted, never
 * answered — the store's timeouts must end the requests), s3rver refuses connections.
 */
import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { MOTO_CREDENTIALS, s3ClientFor, startMoto } from '../../support/moto.ts';
import { startS3Server, TEST_BUCKET, TEST_CREDENTIALS } from './s3-server.ts';

export interface S3Backend {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The test's own client of the store, to look at the bucket behind Bosun's back. */
  client: S3Client;
  /** The part numbers the store received for `objectKey` in multipart uploads. */
  partsOf(objectKey: string): number[];
  /** The store stops answering … */
  goDown(): Promise<void>;
  /** … and is back with everything it held. */
  comeBack(): Promise<void>;
  stop(): Promise<void>;
}

/** The part numbers in request lines `PUT /<bucket>/<key>?…partNumber=N…`, for one key. */
function partNumbers(lines: string[], bucket: string, objectKey: string): number[] {
  const path = `PUT /${bucket}/${objectKey}?`;
  return lines
    .filter((line) => line.includes(path))
    .map((line) => Number(/[?&]partNumber=(\d+)/.exec(line)?.[1]))
    .sort((a, b) => a - b);
}

export interface S3BackendKind {
  name: string;
  /** How this backend is down: what a client sees. */
  outage: string;
  /**
   * The ETag it gives an object written in parts, from the MD5s of the parts and of the whole:
   * S3's (and moto's) "MD5 of the parts' MD5s-count", or s3rver's MD5 of the whole object.
   */
  multipartETag(partMd5s: Buffer[], wholeMd5: string): string;
  start(): Promise<S3Backend>;
}

export const S3_BACKENDS: readonly S3BackendKind[] = [
  {
    name: 'moto',
    outage: 'hangs (SIGSTOP)',
    multipartETag: (parts) =>
      `"${createHash('md5').update(Buffer.concat(parts)).digest('hex')}-${parts.length}"`,
    async start() {
      const moto = await startMoto([TEST_BUCKET]);
      return {
        endpoint: moto.endpoint,
        bucket: TEST_BUCKET,
        credentials: MOTO_CREDENTIALS,
        client: moto.client,
        partsOf: (objectKey) => partNumbers(moto.partRequests(), TEST_BUCKET, objectKey),
        goDown: async () => moto.freeze(),
        comeBack: async () => moto.thaw(),
        stop: () => moto.stop(),
      };
    },
  },
  {
    name: 's3rver',
    outage: 'refuses connections',
    multipartETag: (_parts, whole) => `"${whole}"`,
    async start() {
      const server = await startS3Server();
      const client = s3ClientFor(server.endpoint, TEST_CREDENTIALS);
      return {
        endpoint: server.endpoint,
        bucket: TEST_BUCKET,
        credentials: TEST_CREDENTIALS,
        client,
        partsOf: (objectKey) => partNumbers(server.partRequests(), TEST_BUCKET, objectKey),
        goDown: () => server.close(),
        comeBack: () => server.reopen(),
        async stop() {
          client.destroy();
          await server.stop();
        },
      };
    },
  },
];
