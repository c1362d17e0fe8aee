/**
 * Response header names on the wire in their canonical case (`Content-Type`, `ETag`,
 * `WWW-Authenticate`): fastify lowercases every name it is given, and some clients and test
 * tools read headers from a case-sensitive map. The server is created with this response class,
 * so every response — routes, errors, streams — goes through it at no per-request cost.
 */
import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';

/** Names whose canonical form is not "each dash-separated word capitalised". */
const SPECIAL: Readonly<Record<string, string>> = {
  etag: 'ETag',
  'www-authenticate': 'WWW-Authenticate',
  'content-md5': 'Content-MD5',
  'x-request-id': 'X-Request-Id',
};

const cache = new Map<string, string>();

export function canonicalHeaderName(name: string): string {
  let canonical = cache.get(name);
  if (canonical === undefined) {
    const lower = name.toLowerCase();
    canonical =
      SPECIAL[lower] ??
      lower
        .split('-')
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join('-');
    // Bounded: names come from our code, but a handler could echo arbitrary ones.
    if (cache.size < 1000) cache.set(name, canonical);
  }
  return canonical;
}

function canonicalHeaders(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name of Object.keys(headers)) out[canonicalHeaderName(name)] = headers[name];
  return out;
}

export class CanonicalResponse<Request extends IncomingMessage> extends ServerResponse<Request> {
  override setHeader(name: string, value: number | string | readonly string[]): this {
    return super.setHeader(canonicalHeaderName(name), value);
  }

  // biome-ignore lint/suspicious/noExplicitAny: mirrors ServerResponse.writeHead's overloads
  override writeHead(statusCode: number, ...rest: any[]): this {
    const last = rest.length - 1;
    const headers = rest[last];
    if (headers && typeof headers === 'object' && !Array.isArray(headers)) {
      rest[last] = canonicalHeaders(headers as OutgoingHttpHeaders);
    }
    return super.writeHead(statusCode, ...(rest as [string, OutgoingHttpHeader[]]));
  }
}
