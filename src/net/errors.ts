/**
 * Errors of outbound calls (package downloads, notification callbacks). Each carries a stable
 * `code` for callers to branch on and a message a user can act on; messages never contain
 * credentials.
 */

export type OutboundRefusedCode = 'OUTBOUND_REFUSED' | 'OUTBOUND_SCHEME';

/** The outbound-address policy forbids this URL (scheme, or an address in a non-public range). */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  readonly code: OutboundRefusedCode;
  readonly host: string;
  /** The refused address, when the refusal is about an address. */
  readonly address: string | undefined;

  constructor(code: OutboundRefusedCode, message: string, host: string, address?: string) {
    super(message);
    this.code = code;
    this.host = host;
    this.address = address;
  }
}

/** The host name of an outbound URL could not be resolved. */
export class OutboundLookupError extends Error {
  override name = 'OutboundLookupError';
  readonly code = 'OUTBOUND_UNRESOLVED';
  readonly host: string;

  constructor(host: string, cause: unknown) {
    const reason = (cause as NodeJS.ErrnoException)?.code ?? String(cause);
    super(`cannot resolve host ${host} (${reason}); check the name and the DNS configuration`, { cause });
    this.host = host;
  }
}

export type DownloadErrorCode =
  | OutboundRefusedCode
  | 'DOWNLOAD_BAD_URL'
  | 'DOWNLOAD_TOO_MANY_REDIRECTS'
  | 'DOWNLOAD_CONNECT_TIMEOUT'
  | 'DOWNLOAD_READ_TIMEOUT'
  | 'DOWNLOAD_TOO_LARGE'
  | 'DOWNLOAD_HTTP_STATUS'
  | 'DOWNLOAD_UNREACHABLE'
  | 'DOWNLOAD_TLS';

/** Any failure of `download()`, before the body or while streaming it. */
export class DownloadError extends Error {
  override name = 'DownloadError';
  readonly code: DownloadErrorCode;
  /** The HTTP status, for DOWNLOAD_HTTP_STATUS. */
  readonly status: number | undefined;

  constructor(code: DownloadErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }
}
