/**
 * Uploading package content. PUT checks the request (size, media type, zip magic) and hands the
 * body (raw zip, or the file part of a multipart form) to packages/store-upload.ts, which streams
 * it into the blob store under the package's lease; then PROCESSING with the onboarding job
 * queued. upload_from_uri only queues the job: the worker downloads.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { failure, INTERRUPTED } from '../../../packages/failure.ts';
import { queueUriUpload } from '../../../packages/onboarding.ts';
import { refusalOf } from '../../../packages/states.ts';
import { storeUpload, UploadSupersededError } from '../../../packages/store-upload.ts';
import { ApiError } from '../../../sol/problem.ts';
import { BlobTooLargeError } from '../../../store/blobs/blob-store.ts';
import { isZipMagic, ZIP_MAGIC_LENGTH } from '../../../vnfd/csar/zip-magic.ts';
import { mediaTypeOf } from '../../sol013/media-type.ts';
import { loadPackage, pkgId } from './access.ts';
import { boundaryOf, multipartFile } from './multipart.ts';

function tooLarge(limit: number): ApiError {
  return new ApiError(413, `The package is larger than the ${limit}-byte limit (packages.maxUploadBytes).`, {
    headers: { Connection: 'close' },
  });
}

/**
 * 422, not 415: the declared media type is one the API takes (application/zip, multipart); the
 * bytes sent under it are not a zip (SOL013: a body that cannot be processed). The rest of the
 * body is not read.
 */
function notZip(head: Buffer): ApiError {
  const shown = head.length === 0 ? 'is empty' : `starts with ${hexOf(head)}`;
  return new ApiError(
    422,
    `The package content is not a zip archive: it ${shown}, where a zip starts with 50 4b 03 04 ("PK"). Upload the CSAR zip file itself; the package stays CREATED.`,
    { headers: { Connection: 'close' } },
  );
}

const hexOf = (bytes: Buffer) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ');

/** The first `length` bytes of the stream (fewer if it ends first), put back for its reader. */
async function peek(stream: Readable, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < length && !stream.readableEnded) {
    const chunk = stream.read() as Buffer | string | null;
    if (chunk === null) {
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          stream.off('readable', done).off('end', done).off('error', fail);
          resolve();
        };
        const fail = (err: Error) => {
          stream.off('readable', done).off('end', done);
          reject(err);
        };
        stream.once('readable', done).once('end', done).once('error', fail);
      });
      continue;
    }
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(bytes);
    size += bytes.length;
  }
  const head = Buffer.concat(chunks);
  if (head.length > 0) stream.unshift(head);
  return head.subarray(0, length);
}

export async function uploadContent(request: FastifyRequest, reply: FastifyReply) {
  const { config, db, blobs, onboarding } = request.server.bosun;
  const current = await loadPackage(request, pkgId(request));
  const refusal = refusalOf('upload', current.onboardingState, current.id);
  if (refusal) throw new ApiError(409, refusal);
  const limit = config.packages.maxUploadBytes;
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (declared > limit) throw tooLarge(limit);
  const body = request.body as Readable | undefined;
  if (!body) throw new ApiError(400, 'The request has no body: send the package zip.');
  const multipart = mediaTypeOf(request.headers['content-type']) === 'multipart/form-data';
  const content = multipart
    ? Readable.from(multipartFile(body, boundaryOf(request.headers['content-type'])))
    : body;
  // Refused before the package changes state or anything is stored: it stays CREATED.
  const head = await peek(content, ZIP_MAGIC_LENGTH).catch((err: Error) => {
    throw err instanceof ApiError ? err : new ApiError(400, `The upload did not complete: ${err.message}`);
  });
  if (!isZipMagic(head)) throw notZip(head);
  // How a failed upload is answered, and recorded on the package (back to CREATED).
  const errorOf = (err: unknown): ApiError =>
    err instanceof BlobTooLargeError
      ? tooLarge(limit)
      : err instanceof ApiError
        ? err
        : err instanceof UploadSupersededError
          ? new ApiError(409, err.message)
          : new ApiError(400, `The upload did not complete: ${(err as Error).message}`);
  const failureOf = (err: unknown) => {
    const error = errorOf(err);
    // A body that stopped coming is "interrupted"; a refusal keeps its own reason.
    const reason = error.status === 400 && !(err instanceof ApiError) ? INTERRUPTED : error.detail;
    return failure(error.status, reason);
  };
  const deps = { db, blobs, maxUploadBytes: limit, leaseMs: config.worker.leaseMs };
  const sizeHint = Number.isFinite(declared) ? declared : undefined;
  const stored = await storeUpload(deps, current.id, content, { sizeHint, failureOf }).catch(
    (err: unknown) => {
      throw errorOf(err);
    },
  );
  if (!stored) {
    throw new ApiError(409, `VNF package ${current.id} is no longer CREATED: another upload started.`);
  }
  onboarding.wake();
  return reply.code(202).send();
}

interface UploadFromUri {
  addressInformation: string;
  userName?: string;
  password?: string;
}

export const UploadFromUriSchema = {
  type: 'object',
  required: ['addressInformation'],
  properties: {
    addressInformation: { type: 'string', minLength: 1, maxLength: 2048 },
    userName: { type: 'string', pattern: '^[a-zA-Z0-9_-]*$', maxLength: 255 },
    password: { type: 'string', maxLength: 255 },
  },
  additionalProperties: false,
} as const;

export async function uploadFromUri(request: FastifyRequest, reply: FastifyReply) {
  const { db, box, onboarding } = request.server.bosun;
  const body = request.body as UploadFromUri | undefined;
  if (!body) throw new ApiError(400, 'The request body is missing: send {"addressInformation": "<URI>"}.');
  let url: URL;
  try {
    url = new URL(body.addressInformation);
  } catch {
    throw new ApiError(
      400,
      `addressInformation is not a valid URL: ${JSON.stringify(body.addressInformation)}.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(400, `addressInformation must be an http or https URL, not ${url.protocol}.`);
  }
  const current = await loadPackage(request, pkgId(request));
  const refusal = refusalOf('uploadFromUri', current.onboardingState, current.id);
  if (refusal) throw new ApiError(409, refusal);
  // Credentials in the URL's userinfo are moved out of it: only the sealed copy is stored.
  const userName = body.userName ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password = body.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
  url.username = '';
  url.password = '';
  const sealedCredentials =
    userName !== undefined || password !== undefined
      ? box.seal(JSON.stringify({ userName: userName ?? '', password: password ?? '' }))
      : undefined;
  if (!(await queueUriUpload(db.kysely, current.id, { uri: url.toString(), sealedCredentials }))) {
    throw new ApiError(409, `VNF package ${current.id} is no longer CREATED: another upload started.`);
  }
  onboarding.wake();
  return reply.code(202).send();
}
