/**
 * moto's S3 server (`moto_server`, a Python program on PATH) as a subprocess on a free loopback
 * port: a second, independent implementation of S3 beside s3rver, closer to AWS in what it
 * checks and answers. Started once per test file; state lives in its memory only, so it is
 * frozen (SIGSTOP) rather than restarted when a test needs the store to stop answering.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './ports.ts';

// moto accepts any credentials; these only have to be well-formed.
export const MOTO_CREDENTIALS = { accessKeyId: 'bosun-test', secretAccessKey: 'bosun-test-secret' };

export interface MotoServer {
  endpoint: string;
  pid: number;
  /** A client of this server (path-style, test credentials); destroyed by stop(). */
  client: S3Client;
  /** The request lines it logged for parts of multipart uploads (`PUT /bucket/key?partNumber=…`). */
  partRequests(): string[];
  /** Stops answering (SIGSTOP: connections are accepted by the kernel, never served) … */
  freeze(): void;
  /** … and answers again, with everything it held. */
  thaw(): void;
  stop(): Promise<void>;
}

export function s3ClientFor(endpoint: string, credentials: typeof MOTO_CREDENTIALS): S3Client {
  return new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Starts moto_server, waits until it answers, creates `buckets`. */
export async function startMoto(buckets: string[]): Promise<MotoServer> {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    // Not on PATH: said at once rather than after the wait below.
    spawnError = new Error(`moto_server could not be started (${err.message}): pip install 'moto[server]'`);
  });
  let output = '';
  let partial = '';
  const parts: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    // Its request log is one line per request: the start is kept for a failed start, and the
    // part uploads for the tests that check a put went multipart.
    const text = chunk.toString();
    if (output.length < 10_000) output += text;
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (/"PUT [^"]*[?&]partNumber=/.test(line)) parts.push(line);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitForAnswer(
      endpoint,
      child,
      () => output,
      () => spawnError,
    );
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  const client = s3ClientFor(endpoint, MOTO_CREDENTIALS);
  try {
    for (const Bucket of buckets) await client.send(new CreateBucketCommand({ Bucket }));
  } catch (err) {
    client.destroy();
    await stopChild(child);
    throw err;
  }
  const pid = child.pid ?? 0;
  return {
    endpoint,
    pid,
    client,
    partRequests: () => [...parts],
    freeze: () => process.kill(pid, 'SIGSTOP'),
    thaw: () => process.kill(pid, 'SIGCONT'),
    async stop() {
      client.destroy();
      await stopChild(child);
    },
  };
}

/** Polls until the server answers HTTP (Python's start takes a few seconds). */
async function waitForAnswer(
  endpoint: string,
  child: ChildProcess,
  output: () => string,
  spawnError: () => Error | undefined,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const failed = spawnError();
    if (failed) throw failed;
    if (child.exitCode !== null) throw new Error(`moto_server exited (${child.exitCode}):\n${output()}`);
    const answered = await fetch(endpoint, { signal: AbortSignal.timeout(1000) }).then(
      (res) => res.body?.cancel().then(() => true) ?? true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`moto_server did not answer at ${endpoint} within 30 s:\n${output()}`);
}

/** SIGCONT first (a frozen process does not act on SIGTERM), then SIGTERM, SIGKILL after 5 s. */
function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGCONT');
    child.kill('SIGTERM');
  });
}
