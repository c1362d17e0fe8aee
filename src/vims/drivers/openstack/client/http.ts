/**
 * The one HTTP exchange under every OpenStack call: through a keep-alive agent that connects only
 * to addresses the outbound policy checked (net/pinned-lookup.ts) and trusts the VIM's CA bundle,
 * with a deadline, an abort signal, a bound on the answer's size and a body that may be a stream
 * (a Glance upload straight from the package blob). Failures are `HttpFailure`s: the caller
 * (session.ts) names the service and the call.
 */
import type { Agent, IncomingHttpHeaders } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { hostOf } from '../../../../net/address-policy.ts';
import { pinnedLookup } from '../../../../net/pinned-lookup.ts';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  url: URL;
  headers: Record<string, string>;
  body?: string | Readable;
  /** No answer (headers) within this time fails the call; a streamed body resets it on every chunk. */
  timeoutMs: number;
  /** An answer larger than this fails the call (its start is kept for the message). */
  maxResponseBytes: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type HttpFailureKind = 'TIMEOUT' | 'ABORTED' | 'UNREACHABLE' | 'TLS' | 'TOO_LARGE';

/** No usable HTTP answer. */
export class HttpFailure extends Error {
  override name = 'HttpFailure';
  readonly kind: HttpFailureKind;
  constructor(kind: HttpFailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** Keep-alive agents of one VIM connection, one per origin and its checked addresses. */
export class AgentSet {
  readonly #agents = new Map<string, Agent>();
  readonly #ca: string | undefined;

  constructor(ca: string | undefined) {
    this.#ca = ca;
  }

  get(url: URL, addresses: readonly string[]): Agent {
    const key = `${url.protocol}//${url.host}|${addresses.join(',')}`;
    let agent = this.#agents.get(key);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: 16, lookup: pinnedLookup(addresses) };
      agent =
        url.protocol === 'https:'
          ? new HttpsAgent({ ...options, ...(this.#ca ? { ca: this.#ca } : {}) })
          : new HttpAgent(options);
      this.#agents.set(key, agent);
    }
    return agent;
  }

  destroy(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }
}

export async function exchange(request: HttpRequest, agent: Agent): Promise<HttpResponse> {
  try {
    return await once(request, agent);
  } catch (error) {
    // A kept-alive connection the server closed while idle fails at once: a fresh one, once
    // (never for a streamed body, which cannot be sent twice).
    if ((error as { reusedSocket?: boolean }).reusedSocket && typeof request.body !== 'object') {
      return once(request, agent);
    }
    throw error;
  }
}

function once(request: HttpRequest, agent: Agent): Promise<HttpResponse> {
  const { url } = request;
  const where = `${request.method} ${url.protocol}//${url.host}${url.pathname}`;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(response as HttpResponse);
    };
    const headers: Record<string, string> = { host: url.host, ...request.headers };
    if (typeof request.body === 'string') headers['content-length'] = String(Buffer.byteLength(request.body));
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)({
      method: request.method,
      protocol: url.protocol,
      host: hostOf(url),
      port: url.port === '' ? undefined : Number(url.port),
      path: url.pathname + url.search,
      headers,
      agent,
    });
    const expire = () => {
      finish(new HttpFailure('TIMEOUT', `${where} did not answer within ${request.timeoutMs} ms`));
      req.destroy();
    };
    let timer = setTimeout(expire, request.timeoutMs);
    const onAbort = () => {
      finish(new HttpFailure('ABORTED', `${where} was abandoned (the operation was cancelled)`));
      req.destroy();
    };
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });

    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      const failure = TLS_CODES.test(code)
        ? new HttpFailure(
            'TLS',
            `TLS connection for ${where} failed (${code}): the VIM's certificate is not trusted by its CA bundle (interfaceInfo.ssl_ca_cert) or does not match the host`,
          )
        : new HttpFailure('UNREACHABLE', `${where} failed: ${code || error.message}; is the VIM reachable?`);
      if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) {
        Object.assign(failure, { reusedSocket: true });
      }
      finish(failure);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxResponseBytes) {
          finish(
            new HttpFailure(
              'TOO_LARGE',
              `${where} answered more than ${request.maxResponseBytes} bytes (HTTP ${res.statusCode}); Bosun refuses larger answers`,
            ),
          );
          res.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () =>
        finish(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', () =>
        finish(new HttpFailure('UNREACHABLE', `${where}: the connection broke mid-answer`)),
      );
    });
    const body = request.body;
    if (body === undefined || typeof body === 'string') {
      req.end(body);
      return;
    }
    // A streamed body: the deadline is for silence, so every chunk sent restarts it.
    body.on('data', () => {
      clearTimeout(timer);
      timer = setTimeout(expire, request.timeoutMs);
    });
    body.on('error', (error) => {
      finish(new HttpFailure('UNREACHABLE', `${where}: reading the body to send failed: ${error.message}`));
      req.destroy();
    });
    body.pipe(req);
  });
}
