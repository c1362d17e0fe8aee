/**
 * ETag and conditional requests (SOL013 §4.5): a single resource's ETag is a strong hash of its
 * representation; PATCH with a stale If-Match answers 412 and changes nothing.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../sol/problem.ts';

export function etagOf(representation: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(representation)).digest('base64url').slice(0, 27)}"`;
}

export function setEtag(reply: FastifyReply, etag: string): void {
  reply.header('ETag', etag);
}

/** Throws 412 unless If-Match is absent, `*`, or lists `currentEtag` (strong comparison). */
export function checkIfMatch(request: FastifyRequest, currentEtag: string): void {
  const header = request.headers['if-match'];
  if (header === undefined) return;
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(currentEtag)) return;
  throw new ApiError(
    412,
    `The resource has changed since it was read (If-Match ${header} does not match the current ETag ${currentEtag}); read it again and retry.`,
  );
}
