/**
 * Why a call to a subscriber (callback or token endpoint) failed, in words an operator or the
 * subscriber can act on — the text recorded as the notification's last error. Never contains
 * credentials.
 */
export type CallErrorCode =
  | 'REFUSED_ADDRESS'
  | 'UNRESOLVED'
  | 'CONNECTION_REFUSED'
  | 'TIMEOUT'
  | 'TLS'
  | 'NETWORK'
  | 'HTTP_STATUS'
  | 'TOKEN'
  | 'AUTHENTICATION'
  | 'ABORTED';

export class CallError extends Error {
  override name = 'CallError';
  readonly code: CallErrorCode;
  /** The HTTP status received, for HTTP_STATUS (and TOKEN when the endpoint answered). */
  readonly status: number | undefined;

  constructor(code: CallErrorCode, message: string, status?: number) {
    super(message);
    this.code = code;
    this.status = status;
  }
}
