/**
 * Downloads a user-given URI (VNF package `upload_from_uri`) under the outbound-address policy:
 * every hop is checked before connecting, redirects are bounded, credentials stay with the
 * original origin, and the body is a stream bounded in size and idle time.
 */
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import type { OutboundPolicy } from './address-policy.ts';
import { DownloadError, OutboundLookupError, OutboundRefusedError } from './errors.ts';
import type { Exchange, ExchangeTls } from './pinned-request.ts';
import { describeUrl, openExchange } from './pinned-request.ts';

export interface DownloadOptions {
  policy: OutboundPolicy;
  basicAuth?: { userName: string; password: string };
  /** Headers (an Authorization among them) and TLS identity sent to the original origin only. */
  originHeaders?: Record<string, string>;
  originTls?: ExchangeTls;
  connectTimeoutMs: number;
  /** Idle time allowed between bytes (headers included). */
  readTimeoutMs: number;
  maxRedirects: number;
  maxBytes: number;
  accept?: string;
}

export interface Download {
  /** Errors with a DownloadError (DOWNLOAD_TOO_LARGE, DOWNLOAD_READ_TIMEOUT, DOWNLOAD_UNREACHABLE). */
  body: Readable;
  contentLength?: number;
  contentType?: string;
  /** The URL the body came from, after redirects (without credentials). */
  finalUrl: string;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

export async function download(url: string, options: DownloadOptions): Promise<Download> {
  let current = parseUrl(url);
  const auth = options.basicAuth ?? credentialsIn(current);
  const origin = current.origin;
  current.username = '';
  current.password = '';
  for (let redirects = 0; ; redirects++) {
    const addresses = await checkPolicy(options.policy, current);
    const headers: Record<string, string> = { 'user-agent': 'Bosun', 'accept-encoding': 'identity' };
    if (options.accept) headers.accept = options.accept;
    const atOrigin = current.origin === origin;
    if (atOrigin) Object.assign(headers, options.originHeaders);
    const sendAuth = (auth !== undefined || headers.authorization !== undefined) && atOrigin;
    if (auth !== undefined && atOrigin) {
      headers.authorization = `Basic ${Buffer.from(`${auth.userName}:${auth.password}`).toString('base64')}`;
    }
    const exchange = await openExchange(
      current,
      addresses,
      headers,
      options,
      atOrigin ? options.originTls : undefined,
    );
    const { statusCode = 0, headers: got } = exchange.response;

    if (redirectStatuses.has(statusCode) && got.location) {
      exchange.close();
      if (redirects >= options.maxRedirects) {
        throw new DownloadError(
          'DOWNLOAD_TOO_MANY_REDIRECTS',
          `${describeUrl(current)} redirects more than ${options.maxRedirects} times; give the final URI`,
        );
      }
      current = parseUrl(got.location, current);
      current.username = '';
      current.password = '';
      continue;
    }
    if (statusCode < 200 || statusCode > 299) {
      exchange.close();
      throw statusError(statusCode, current, sendAuth);
    }
    const contentLength = chunkedOrAbsent(got) ? undefined : Number(got['content-length']);
    if (contentLength !== undefined && contentLength > options.maxBytes) {
      exchange.close();
      throw tooLarge(current, options.maxBytes, `Content-Length: ${contentLength}`);
    }
    return {
      body: boundedBody(exchange, current, options.maxBytes),
      contentLength,
      contentType: got['content-type'],
      finalUrl: current.href,
    };
  }
}

/** The response body, failing once it exceeds `maxBytes` or the server goes idle. */
function boundedBody(exchange: Exchange, url: URL, maxBytes: number): Readable {
  let received = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) callback(tooLarge(url, maxBytes, `more than ${maxBytes} bytes received`));
      else callback(null, chunk);
    },
  });
  const { response } = exchange;
  exchange.onIdle(() => {
    body.destroy(
      new DownloadError(
        'DOWNLOAD_READ_TIMEOUT',
        `${describeUrl(url)} stopped sending after ${received} bytes; the server is stalled or too slow`,
      ),
    );
  });
  const truncated = () =>
    body.destroy(
      new DownloadError(
        'DOWNLOAD_UNREACHABLE',
        `the connection to ${describeUrl(url)} closed after ${received} bytes, before the whole body arrived`,
      ),
    );
  response.on('error', truncated);
  response.on('close', () => {
    if (!response.complete) truncated();
  });
  body.on('close', () => exchange.close());
  response.pipe(body);
  return body;
}

async function checkPolicy(policy: OutboundPolicy, url: URL): Promise<string[]> {
  try {
    return await policy.check(url);
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      throw new DownloadError(error.code, error.message, { cause: error });
    if (error instanceof OutboundLookupError) {
      throw new DownloadError('DOWNLOAD_UNREACHABLE', error.message, { cause: error });
    }
    throw error;
  }
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    // the text may hold credentials: do not echo it
    throw new DownloadError('DOWNLOAD_BAD_URL', 'the URI is not a valid absolute http or https URI');
  }
}

function credentialsIn(url: URL): { userName: string; password: string } | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text; // a stray '%' is taken literally
    }
  };
  return { userName: decode(url.username), password: decode(url.password) };
}

function chunkedOrAbsent(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return length === undefined || !/^\d+$/.test(String(length)) || headers['transfer-encoding'] !== undefined;
}

function tooLarge(url: URL, maxBytes: number, detail: string): DownloadError {
  return new DownloadError(
    'DOWNLOAD_TOO_LARGE',
    `${describeUrl(url)} is larger than the ${maxBytes}-byte limit (${detail}); raise the size cap in the configuration if this is expected`,
  );
}

function statusError(status: number, url: URL, sentAuth: boolean): DownloadError {
  let hint = 'check the URI';
  if (status === 401) {
    hint = sentAuth
      ? 'the server refused the credentials; check userName and password'
      : 'the server requires credentials; give userName and password';
  } else if (status === 403) hint = 'the server forbids access to it';
  else if (status === 404) hint = 'nothing is there; check the URI';
  else if (status >= 500) hint = 'the server failed; try again later or ask its operator';
  else if (status >= 300 && status < 400) hint = 'the redirect has no Location';
  return new DownloadError('DOWNLOAD_HTTP_STATUS', `${describeUrl(url)} answered HTTP ${status}: ${hint}`, {
    status,
  });
}
