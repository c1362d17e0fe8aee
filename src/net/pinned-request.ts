/**
 * One HTTP(S) GET of a download to addresses the outbound policy has already checked (the socket
 * connects to those and nothing else: see pinned-lookup.ts). Owns the connect timeout and the
 * idle read timeout.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { hostOf } from './address-policy.ts';
import { DownloadError } from './errors.ts';
import { pinnedLookup } from './pinned-lookup.ts';

export interface Exchange {
  response: IncomingMessage;
  /** Replaces what happens when the read timeout expires (default: fail the request). */
  onIdle(handler: () => void): void;
  /** Ends the exchange and closes its connection (no keep-alive: every call has its own socket). */
  close(): void;
}

export interface RequestTimeouts {
  connectTimeoutMs: number;
  readTimeoutMs: number;
}

/** PEM client certificate and key presented, and CAs trusted instead of the system store (https). */
export interface ExchangeTls {
  cert?: string;
  key?: string;
  ca?: string;
}

/** Sends the GET and resolves with the response headers, or rejects with a DownloadError. */
export function openExchange(
  url: URL,
  addresses: string[],
  headers: Record<string, string>,
  timeouts: RequestTimeouts,
  tls?: ExchangeTls,
): Promise<Exchange> {
  const https = url.protocol === 'https:';
  const where = describeUrl(url);

  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined;
    let idleTimer: NodeJS.Timeout | undefined;
    let idleHandler = () => {
      req.destroy(
        new DownloadError(
          'DOWNLOAD_READ_TIMEOUT',
          `${where} sent nothing for ${timeouts.readTimeoutMs} ms; the server is stalled or too slow`,
        ),
      );
    };
    // A response that we stopped reading (backpressure from the consumer) is not idle by the server's fault.
    const onIdleTimer = () => {
      const waiting =
        response === undefined ||
        (!response.isPaused() && response.readableLength < response.readableHighWaterMark);
      if (waiting) idleHandler();
      else idleTimer?.refresh();
    };
    const connectTimer = setTimeout(() => {
      req.destroy(
        new DownloadError(
          'DOWNLOAD_CONNECT_TIMEOUT',
          `could not connect to ${where} within ${timeouts.connectTimeoutMs} ms; check that the host is reachable from Bosun`,
        ),
      );
    }, timeouts.connectTimeoutMs);
    const stopTimers = () => {
      clearTimeout(connectTimer);
      if (idleTimer) clearTimeout(idleTimer);
    };

    const req: ClientRequest = (https ? httpsRequest : httpRequest)({
      method: 'GET',
      protocol: url.protocol,
      host: hostOf(url),
      port: url.port === '' ? undefined : Number(url.port),
      path: url.pathname + url.search,
      headers: { host: url.host, ...headers },
      lookup: pinnedLookup(addresses),
      agent: false,
      ...(https && tls ? { cert: tls.cert, key: tls.key, ca: tls.ca } : {}),
    });
    req.on('socket', (socket) => {
      socket.once(https ? 'secureConnect' : 'connect', () => {
        clearTimeout(connectTimer);
        idleTimer = setTimeout(onIdleTimer, timeouts.readTimeoutMs);
      });
      socket.on('data', () => idleTimer?.refresh());
    });
    req.on('error', (error) => {
      stopTimers();
      reject(toDownloadError(error, where));
    });
    req.on('close', stopTimers);
    req.on('response', (res) => {
      response = res;
      res.on('close', stopTimers);
      resolve({
        response: res,
        onIdle: (handler) => {
          idleHandler = handler;
        },
        close: () => {
          stopTimers();
          // an unread response errors with "aborted" when its socket goes; nobody needs that error
          res.on('error', () => {});
          req.destroy();
        },
      });
    });
    req.end();
  });
}

const tlsCodes = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** Maps a socket or TLS error to the DownloadError a user can act on. */
export function toDownloadError(error: unknown, where: string): DownloadError {
  if (error instanceof DownloadError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (tlsCodes.test(code)) {
    return new DownloadError(
      'DOWNLOAD_TLS',
      `TLS connection to ${where} failed (${code}): the server certificate is not trusted or does not match the host`,
      { cause: error },
    );
  }
  return new DownloadError(
    'DOWNLOAD_UNREACHABLE',
    `cannot reach ${where} (${code || (error as Error).message}); check the URI and that the server is up`,
    { cause: error },
  );
}

/** The URL for messages: no credentials and no query string (presigned URLs carry secrets there). */
export function describeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}
