/**
 * A throwaway S3-compatible server (s3rver, in this process) on loopback, with a 'bosun'
 * bucket. Its objects live in a folder, so it can be closed (connections refused: the store is
 * down) and started again on the same port with everything it held.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export const TEST_BUCKET = 'bosun';
// s3rver's built-in credentials.
export const TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  endpoint: string;
  /** The request lines it received for parts of multipart uploads (`PUT /bucket/key?partNumber=…`). */
  partRequests(): string[];
  /** Closes the server: connections to its port are refused … */
  close(): Promise<void>;
  /** … until it is started again on the same port, with the same objects. */
  reopen(): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'bosun-s3rver-'));
  const open = (port: number) =>
    new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: TEST_BUCKET }],
    });
  const parts: string[] = [];
  const run = async (server: S3rver) => {
    const address = await server.run();
    server.httpServer?.on('request', (req: IncomingMessage) => {
      if (req.method === 'PUT' && /[?&]partNumber=/.test(req.url ?? '')) parts.push(`PUT ${req.url}`);
    });
    return address;
  };
  let server: S3rver | undefined = open(0);
  const { port } = await run(server);
  const close = async () => {
    if (!server) return;
    // Keep-alive sockets of SDK clients would hold close() open.
    server.httpServer?.closeAllConnections();
    await server.close();
    server = undefined;
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    partRequests: () => [...parts],
    close,
    async reopen() {
      if (server) return;
      server = open(port);
      await run(server);
    },
    async stop() {
      await close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
