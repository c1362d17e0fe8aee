/**
 * What an S3 SDK error means for a blob store: "not found" is an answer (the caller decides),
 * anything else — refused connection, timeout, 5xx, access denied, a missing bucket — is the
 * store being unavailable, said once in one error type with the operation and a short reason
 * (the error code and the attempts made, never the endpoint's address).
 */
import { BlobStoreUnavailableError } from './blob-store.ts';

/** The parts of an SDK (or Node network) error that tell what happened. */
interface SdkErrorFacts {
  name?: string;
  code?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number };
}

const factsOf = (err: unknown): SdkErrorFacts => (typeof err === 'object' && err !== null ? err : {});

export const statusOf = (err: unknown): number | undefined => factsOf(err).$metadata?.httpStatusCode;

export const isNotFound = (err: unknown): boolean =>
  statusOf(err) === 404 || ['NoSuchKey', 'NotFound'].includes(factsOf(err).name ?? '');

/** An error of a request to the store (the SDK's middleware gives each one its $metadata). */
export const isStoreError = (err: unknown): boolean => factsOf(err).$metadata !== undefined;

/** e.g. "ECONNREFUSED after 2 attempts", "HTTP 500 InternalError", "TimeoutError". */
function reasonOf(err: unknown): string {
  const facts = factsOf(err);
  // A network error's code is on the error itself or on its cause (fetch-style wrapping).
  const cause = factsOf((err as { cause?: unknown } | null)?.cause);
  const code = facts.code ?? cause.code ?? facts.Code;
  const status = facts.$metadata?.httpStatusCode;
  const what = [status ? `HTTP ${status}` : '', code ?? facts.name ?? 'error'].filter(Boolean).join(' ');
  const attempts = facts.$metadata?.attempts;
  return attempts && attempts > 1 ? `${what} after ${attempts} attempts` : what;
}

/** `err` as the error a blob store throws: BlobStoreUnavailableError unless it already is one. */
export function unavailable(operation: string, err: unknown): BlobStoreUnavailableError {
  if (err instanceof BlobStoreUnavailableError) return err;
  return new BlobStoreUnavailableError(operation, reasonOf(err), err);
}
