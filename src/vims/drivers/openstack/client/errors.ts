/**
 * OpenStack failures as InfraErrors a user can act on: the message names the service, the call
 * and OpenStack's own message (each service wraps it differently: Keystone `error.message`, Nova
 * `{itemNotFound: {message}}`, Heat `error.message`/`explanation`, Neutron `NeutronError.message`,
 * Glance an HTML page), and the code follows the status — except that Nova's "No valid host was
 * found" is NO_VALID_HOST wherever it appears.
 */
import { InfraError, type InfraErrorCode } from '../../../contract.ts';
import { HttpFailure, type HttpFailureKind } from './http.ts';

/** Catalog service types the client calls, and the names users know them by. */
export const SERVICE_NAMES = {
  identity: 'Keystone',
  compute: 'Nova',
  orchestration: 'Heat',
  image: 'Glance',
  network: 'Neutron',
} as const;

export type ServiceType = keyof typeof SERVICE_NAMES;

/** Messages that mean the scheduler found no room (Nova's, as Heat and Nova report them). */
export const NO_VALID_HOST = /No valid host was found|Exceeded maximum number of retries/i;

const STATUS_CODES: readonly [number, InfraErrorCode][] = [
  [400, 'INVALID_REQUEST'],
  [401, 'INVALID_REQUEST'],
  [403, 'INVALID_REQUEST'],
  [404, 'NOT_FOUND'],
  [413, 'INVALID_REQUEST'],
  [502, 'VIM_UNAVAILABLE'],
  [503, 'VIM_UNAVAILABLE'],
  [504, 'VIM_TIMEOUT'],
];

const FAILURE_CODES: Record<HttpFailureKind, InfraErrorCode> = {
  TIMEOUT: 'VIM_TIMEOUT',
  ABORTED: 'CANCELLED',
  UNREACHABLE: 'VIM_UNAVAILABLE',
  TLS: 'VIM_UNAVAILABLE',
  TOO_LARGE: 'VIM_OPERATION_FAILED',
};

/** What users should check after a status, when OpenStack's message alone does not say. */
const HINTS: Record<number, string> = {
  401: 'check the VIM credentials (user, password or application credential, domains)',
  403: 'the VIM user lacks the role this call needs',
};

const MAX_MESSAGE = 600;

/** OpenStack's own message in an error body, whatever the service's wrapping. */
export function openStackMessage(body: Buffer | string): string {
  const text = body.toString().trim();
  if (text === '') return '';
  try {
    const json: unknown = JSON.parse(text);
    // Heat puts a generic `explanation` beside the real `error.message`: messages first.
    const found = findKey(json, ['message', 'faultstring'], 3) ?? findKey(json, ['explanation', 'detail'], 3);
    if (found) return clip(found);
  } catch {
    // not JSON: Glance and some proxies answer with HTML or plain text
  }
  return clip(
    text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

function findKey(value: unknown, keys: readonly string[], depth: number): string | undefined {
  if (typeof value !== 'object' || value === null || depth < 0) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of keys) {
    if (typeof record[key] === 'string' && record[key]) return record[key] as string;
  }
  for (const child of Object.values(record)) {
    const found = findKey(child, keys, depth - 1);
    if (found) return found;
  }
  return undefined;
}

const clip = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text);

/** The InfraError for an answer with an error status. */
export function statusError(service: ServiceType, call: string, status: number, body: Buffer): InfraError {
  const message = openStackMessage(body);
  const hint = HINTS[status];
  const text = `${SERVICE_NAMES[service]} ${call} failed (HTTP ${status})${message ? `: ${message}` : ''}${hint ? `; ${hint}` : ''}`;
  const code: InfraErrorCode = NO_VALID_HOST.test(message)
    ? 'NO_VALID_HOST'
    : (STATUS_CODES.find(([s]) => s === status)?.[1] ?? 'VIM_OPERATION_FAILED');
  return new InfraError(code, text, { service, call, status });
}

/** The InfraError for a call that got no usable answer. */
export function transportError(service: ServiceType, call: string, error: unknown): InfraError {
  if (error instanceof InfraError) return error;
  if (error instanceof HttpFailure) {
    return new InfraError(FAILURE_CODES[error.kind], `${SERVICE_NAMES[service]} ${call}: ${error.message}`, {
      service,
      call,
    });
  }
  throw error;
}
