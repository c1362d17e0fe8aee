/**
 * The `Status` objects the real API server answers errors with, shaped exactly as it shapes them
 * (kind, apiVersion, empty metadata, status Failure, message, reason, details, code): clients such
 * as kubectl print the message and branch on the reason.
 */
import { type Kind, qualifiedKind } from './kinds.ts';
import type { Obj } from './store.ts';

export interface Cause {
  reason?: string;
  message: string;
  field?: string;
}

export class StatusError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details?: Obj;

  constructor(code: number, reason: string, message: string, details?: Obj) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  toStatus(): Obj {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** details.group/kind as the real server fills them: the resource (plural) and its group. */
const detailsOf = (kind: Kind, name: string): Obj => ({
  name,
  ...(kind.group ? { group: kind.group } : {}),
  kind: kind.plural,
});

const resourceName = (kind: Kind) => (kind.group ? `${kind.plural}.${kind.group}` : kind.plural);

export const notFound = (kind: Kind, name: string) =>
  new StatusError(404, 'NotFound', `${resourceName(kind)} "${name}" not found`, detailsOf(kind, name));

/** A write into a namespace that does not exist. */
export const namespaceNotFound = (namespace: string) =>
  new StatusError(404, 'NotFound', `namespaces "${namespace}" not found`, {
    name: namespace,
    kind: 'namespaces',
  });

export const alreadyExists = (kind: Kind, name: string) =>
  new StatusError(
    409,
    'AlreadyExists',
    `${resourceName(kind)} "${name}" already exists`,
    detailsOf(kind, name),
  );

export const conflict = (kind: Kind, name: string, why: string) =>
  new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${resourceName(kind)} "${name}": ${why}`,
    detailsOf(kind, name),
  );

export const MODIFIED =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 422 with the real server's "Kind.group "name" is invalid: field: message" text. */
export function invalid(kind: Kind, name: string, causes: Cause[]): StatusError {
  const texts = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const summary = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return new StatusError(422, 'Invalid', `${qualifiedKind(kind)} "${name}" is invalid: ${summary}`, {
    name,
    ...(kind.group ? { group: kind.group } : {}),
    kind: kind.kind,
    causes: causes.map((c) => ({
      reason: c.reason ?? 'FieldValueInvalid',
      message: c.message,
      field: c.field,
    })),
  });
}

export const forbidden = (kind: Kind, name: string, why: string) =>
  new StatusError(
    403,
    'Forbidden',
    `${resourceName(kind)} "${name}" is forbidden: ${why}`,
    detailsOf(kind, name),
  );

export const badRequest = (message: string) => new StatusError(400, 'BadRequest', message);

export const methodNotAllowed = (message: string) => new StatusError(405, 'MethodNotAllowed', message);

export const unsupportedMediaType = (type: string) =>
  new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got ${type})`,
  );

export const unauthorized = () => new StatusError(401, 'Unauthorized', 'Unauthorized');

export const tooLarge = (limit: number) =>
  new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);

export const gone = (rv: number, oldest: number) =>
  new StatusError(410, 'Expired', `too old resource version: ${rv} (${oldest})`);

/** The success Status a DELETE answers with when the object is gone at once. */
export const deleted = (kind: Kind, name: string, uid: string): Obj => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  details: { ...detailsOf(kind, name), uid },
});

/** A path no resource answers to. */
export const noSuchResource = () =>
  new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
