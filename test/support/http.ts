/**
 * Small fetch wrapper for tests: returns status, headers and the parsed body. Every /vnflcm/v1
 * answer is checked against ETSI's v2.6.1 schemas on the way (test/http/vnflcm/v1-responses.ts).
 */
import { connect } from 'node:net';
import { checkV1Response, V1_PREFIX } from '../http/vnflcm/v1-responses.ts';

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON (problem+json included), else the text. */
  body: T;
  text: string;
}

export async function http<T = unknown>(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer | object } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
    else {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const parsed = type.includes('json') && text ? JSON.parse(text) : text;
  const result = { status: res.status, headers: res.headers, body: parsed as T, text };
  if (path === V1_PREFIX || path.startsWith(`${V1_PREFIX}/`)) checkV1Response(method, path, result);
  return result;
}

/** Asserts a ProblemDetails answer and returns it. */
export function isProblem(result: HttpResult, status: number): boolean {
  const b = result.body as { status?: number; detail?: string };
  return (
    result.status === status &&
    (result.headers.get('content-type') ?? '').startsWith('application/problem+json') &&
    b.status === status &&
    typeof b.detail === 'string' &&
    b.detail.length > 0
  );
}

export interface RawResult {
  status: number;
  /** Header lines as sent on the wire: names in their original case, in order. */
  headers: [string, string][];
  body: string;
}

/**
 * Sends `request` bytes as they are on a raw socket (no client normalises or refuses them) and
 * reads the one answer until the server closes the connection; send `Connection: close`.
 */
export function rawHttp(base: string, request: string | Buffer): Promise<RawResult> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no complete answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = lines.map((line): [string, string] => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon), line.slice(colon + 1).trim()];
      });
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
  });
}

/** A raw answer's header by exact (case-sensitive) name. */
export const rawHeader = (result: RawResult, name: string) => result.headers.find(([n]) => n === name)?.[1];
