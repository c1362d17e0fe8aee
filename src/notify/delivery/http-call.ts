/**
 * One HTTP request to a subscriber through a keep-alive agent bound to checked addresses, with
 * a deadline covering connect, request and response. The response body is read (so that the
 * connection can be reused) and its start kept for error messages.
 */
import type { Agent, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { hostOf } from '../../net/address-policy.ts';
import { describeUrl } from '../../net/pinned-request.ts';
import { CallError } from './call-error.ts';

export interface CallRequest {
  method: 'GET' | 'POST';
  url: URL;
  agent: Agent;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of the body kept (default 64 KiB); beyond them the connection is dropped. */
  maxBodyBytes?: number;
}

export interface CallResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first bytes of the body (enough for a token response or an error message). */
  body: string;
  /** The body was longer than the bytes kept. */
  truncated: boolean;
}

/** Bodies larger than this are not read further: the connection is dropped instead. */
const MAX_BODY = 64 * 1024;

const tlsCodes = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

export async function call(request: CallRequest): Promise<CallResponse> {
  try {
    return await once(request);
  } catch (error) {
    // A kept-alive connection the server closed while idle fails at once: try a fresh one, once.
    if ((error as { reusedSocket?: boolean }).reusedSocket) return once(request);
    throw error;
  }
}

function once(request: CallRequest): Promise<CallResponse> {
  const { url } = request;
  const where = describeUrl(url);
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: CallError) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const headers: Record<string, string> = { host: url.host, ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)({
      method: request.method,
      protocol: url.protocol,
      host: hostOf(url),
      port: url.port === '' ? undefined : Number(url.port),
      path: url.pathname + url.search,
      headers,
      agent: request.agent,
    });
    const deadline = setTimeout(() => {
      fail(new CallError('TIMEOUT', `${where} did not answer within ${request.timeoutMs} ms`));
      req.destroy();
    }, request.timeoutMs);
    const onAbort = () => {
      fail(new CallError('ABORTED', `the call to ${where} was abandoned (Bosun is stopping)`));
      req.destroy();
    };
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });

    req.on('error', (error: NodeJS.ErrnoException) => {
      const mapped = socketError(error, where);
      if (req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
        Object.assign(mapped, { reusedSocket: true });
      }
      fail(mapped);
    });
    const maxBody = request.maxBodyBytes ?? MAX_BODY;
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBody) chunks.push(chunk);
        else {
          // Enough: nobody needs the rest; the connection is not reusable then.
          res.destroy();
          finish();
        }
      });
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        request.signal?.removeEventListener('abort', onAbort);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          truncated: size > maxBody,
        });
      };
      res.on('end', finish);
      res.on('error', () =>
        fail(new CallError('NETWORK', `the connection to ${where} broke while reading the answer`)),
      );
      res.on('close', () => {
        if (!res.complete && size <= maxBody) {
          fail(new CallError('NETWORK', `the connection to ${where} closed before the whole answer arrived`));
        }
      });
    });
    req.end(request.body);
  });
}

function socketError(error: NodeJS.ErrnoException, where: string): CallError {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') {
    return new CallError('CONNECTION_REFUSED', `connection refused by ${where}: is the receiver running?`);
  }
  if (tlsCodes.test(code)) {
    return new CallError(
      'TLS',
      `TLS connection to ${where} failed (${code}): the server certificate is not trusted or does not match the host`,
    );
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    return new CallError(
      'NETWORK',
      `${where} closed the connection (${code}); if it requires a client certificate, check the subscription's TLS authentication`,
    );
  }
  return new CallError('NETWORK', `cannot reach ${where} (${code || error.message})`);
}
