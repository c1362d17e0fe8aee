/**
 * Kubernetes failures as InfraErrors a user can act on: the message names the call and the API
 * server's own Status message ("deployments.apps \"vdu1\" is forbidden: exceeded quota …"), and
 * the code follows the status.
 */
import { Value } from '@sinclair/typebox/value';
import { InfraError, type InfraErrorCode } from '../../../contract.ts';
import { HttpFailure, type HttpFailureKind } from '../../openstack/client/http.ts';
import { Status } from './types.ts';

const STATUS_CODES: Record<number, InfraErrorCode> = {
  400: 'INVALID_REQUEST',
  401: 'INVALID_REQUEST',
  403: 'INVALID_REQUEST',
  404: 'NOT_FOUND',
  413: 'INVALID_REQUEST',
  422: 'INVALID_REQUEST',
  502: 'VIM_UNAVAILABLE',
  503: 'VIM_UNAVAILABLE',
  504: 'VIM_TIMEOUT',
};

const HINTS: Record<number, string> = {
  401: 'check the VIM credentials (bearer token or client certificate)',
  403: 'the VIM user lacks the RBAC permission this call needs, or a quota or admission policy refused it',
};

const FAILURE_CODES: Record<HttpFailureKind, InfraErrorCode> = {
  TIMEOUT: 'VIM_TIMEOUT',
  ABORTED: 'CANCELLED',
  UNREACHABLE: 'VIM_UNAVAILABLE',
  TLS: 'VIM_UNAVAILABLE',
  TOO_LARGE: 'VIM_OPERATION_FAILED',
};

const MAX_MESSAGE = 600;
const clip = (s: string) => (s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}…` : s);

/** The API server's message in an error body (a Status), else the body's text. */
export function kubeMessage(body: Buffer): string {
  const text = body.toString('utf8').trim();
  try {
    const parsed: unknown = JSON.parse(text);
    if (Value.Check(Status, parsed) && parsed.message) return clip(parsed.message);
  } catch {
    // not JSON: a proxy's page
  }
  return clip(
    text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

export function statusError(call: string, status: number, body: Buffer): InfraError {
  const message = kubeMessage(body);
  const hint = HINTS[status];
  const code = STATUS_CODES[status] ?? 'VIM_OPERATION_FAILED';
  return new InfraError(
    code,
    `Kubernetes ${call} failed (HTTP ${status})${message ? `: ${message}` : ''}${hint ? `; ${hint}` : ''}`,
    { call, status },
  );
}

export function transportError(call: string, error: unknown): InfraError {
  if (error instanceof InfraError) return error;
  if (error instanceof HttpFailure) {
    return new InfraError(FAILURE_CODES[error.kind], `Kubernetes ${call}: ${error.message}`, { call });
  }
  throw error;
}
