/**
 * Downloads of an ONBOARDED package: the zip (Range), the VNFD (text or zip), one declared
 * artifact (Range, MIME from the extension) and the manifest (with or without signatures).
 * Content-Types are exact strings (no charset): the Tacker client compares them literally.
 */
import { extname } from 'node:path';
import { PassThrough, type Readable, Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import yazl from 'yazl';
import type { PackageRecord } from '../../../packages/package-record.ts';
import { packageBlobKey } from '../../../packages/package-record.ts';
import { refusalOf } from '../../../packages/states.ts';
import type { PackageFiles } from '../../../vnfd/csar/package-files.ts';
import { openZipPackage } from '../../../vnfd/csar/zip-reader.ts';
import { ApiError } from '../../sol013/problem.ts';
import { parseRange } from './range.ts';

function requireOnboarded(record: PackageRecord): void {
  const refusal = refusalOf('fetchContent', record.onboardingState, record.id);
  if (refusal) throw new ApiError(409, refusal);
}

/** Sends `size` bytes from `open(range)` honouring Range. */
async function sendRanged(
  request: FastifyRequest,
  reply: FastifyReply,
  type: string,
  size: number,
  open: (range?: { start: number; end: number }) => Promise<Readable>,
) {
  const range = parseRange(request.headers.range, size);
  reply.header('Accept-Ranges', 'bytes').header('Content-Type', type);
  if (!range) {
    reply.header('Content-Length', String(size));
    return reply.code(200).send(await open());
  }
  reply
    .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    .header('Content-Length', String(range.end - range.start + 1));
  return reply.code(206).send(await open(range));
}

export async function sendPackageContent(
  request: FastifyRequest,
  reply: FastifyReply,
  record: PackageRecord,
) {
  requireOnboarded(record);
  const { blobs } = request.server.bosun;
  const key = packageBlobKey(record.id);
  const stat = await blobs.stat(key);
  if (!stat)
    throw new ApiError(500, `The content of VNF package ${record.id} is missing from the blob store.`);
  return sendRanged(request, reply, 'application/zip', stat.size, (range) => blobs.get(key, range));
}

/** Opens the package zip; the caller must close the files. */
async function openFiles(request: FastifyRequest, record: PackageRecord): Promise<PackageFiles> {
  const path = await request.server.bosun.blobs.localFile(packageBlobKey(record.id));
  const opened = await openZipPackage(path);
  if (!opened.files) throw new ApiError(500, `The content of VNF package ${record.id} cannot be read.`);
  return opened.files;
}

/** Bytes [start, end] of a stream. */
function slice(start: number, end: number): Transform {
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const from = Math.max(0, start - offset);
      const to = Math.min(chunk.length, end + 1 - offset);
      offset += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      done();
    },
  });
}

const MIME: Record<string, string> = {
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.sh': 'application/x-sh',
  '.py': 'text/x-python',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
  '.tgz': 'application/gzip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.img': 'application/octet-stream',
  '.qcow2': 'application/octet-stream',
  '.iso': 'application/octet-stream',
  '.cert': 'application/pkix-cert',
  '.crt': 'application/pkix-cert',
  '.pem': 'application/x-pem-file',
  '.mf': 'text/plain',
  '.meta': 'text/plain',
  '.tf': 'text/plain',
  '.j2': 'text/plain',
};

export async function sendArtifact(
  request: FastifyRequest,
  reply: FastifyReply,
  record: PackageRecord,
  artifactPath: string,
) {
  requireOnboarded(record);
  let path = artifactPath;
  try {
    path = decodeURIComponent(artifactPath);
  } catch {
    // Not percent-encoded: use it as given.
  }
  if (!record.files?.artifacts.includes(path)) {
    throw new ApiError(404, `${path} is not an artifact of VNF package ${record.id}.`);
  }
  const files = await openFiles(request, record);
  try {
    const size = files.size(path);
    const type = MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
    return await sendRanged(request, reply, type, size, async (range) => {
      const stream = await files.openStream(path);
      const out = range ? stream.pipe(slice(range.start, range.end)) : stream.pipe(new PassThrough());
      const close = () => files.close().catch(() => {});
      out.once('close', close);
      out.once('end', close);
      stream.once('error', (err) => out.destroy(err));
      return out;
    });
  } catch (err) {
    await files.close().catch(() => {});
    throw err;
  }
}

function zipOf(entries: { name: string; data: Buffer }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(e.data, e.name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

export async function sendVnfd(request: FastifyRequest, reply: FastifyReply, record: PackageRecord) {
  requireOnboarded(record);
  const index = record.files;
  const entry = record.entryDefinitions;
  if (!index || !entry) throw new ApiError(500, `VNF package ${record.id} has no VNFD recorded.`);
  const accept = request.headers.accept ?? '';
  const wantsText = request.negotiatedType === 'text/plain' && !/application\/zip/i.test(accept);
  const files = await openFiles(request, record);
  try {
    if (wantsText) {
      if (index.vnfdFiles.length > 1) {
        throw new ApiError(
          406,
          `The VNFD of VNF package ${record.id} spans ${index.vnfdFiles.length} files (${index.vnfdFiles.join(', ')}): ask for application/zip.`,
        );
      }
      return reply
        .code(200)
        .header('Content-Type', 'text/plain')
        .send(Buffer.from(await files.readText(entry)));
    }
    const names = [...(index.toscaMeta ? [index.toscaMeta] : []), ...index.vnfdFiles];
    const entries = await Promise.all(
      names.map(async (name) => ({ name, data: Buffer.from(await files.readText(name)) })),
    );
    return reply
      .code(200)
      .header('Content-Type', 'application/zip')
      .send(await zipOf(entries));
  } finally {
    await files.close();
  }
}

/** The CMS signature block of a manifest (SOL004 §5.2.6), to strip or keep. */
const CMS_BLOCK = /\r?\n?-----BEGIN CMS-----[\s\S]*?-----END CMS-----\r?\n?/g;

export async function sendManifest(request: FastifyRequest, reply: FastifyReply, record: PackageRecord) {
  requireOnboarded(record);
  if (!record.manifestFile) throw new ApiError(404, `VNF package ${record.id} has no manifest.`);
  const withSignatures = (request.query as { include_signatures?: string }).include_signatures !== undefined;
  const files = await openFiles(request, record);
  try {
    const text = await files.readText(record.manifestFile);
    if (!withSignatures) {
      return reply
        .code(200)
        .header('Content-Type', 'text/plain')
        .send(Buffer.from(text.replace(CMS_BLOCK, '\n')));
    }
    if (!record.signingCertificate || !files.has(record.signingCertificate)) {
      return reply.code(200).header('Content-Type', 'text/plain').send(Buffer.from(text));
    }
    const cert = await files.readText(record.signingCertificate);
    const zip = await zipOf([
      { name: record.manifestFile, data: Buffer.from(text) },
      { name: record.signingCertificate, data: Buffer.from(cert) },
    ]);
    return reply.code(200).header('Content-Type', 'application/zip').send(zip);
  } finally {
    await files.close();
  }
}
