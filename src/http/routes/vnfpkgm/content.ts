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
import { ApiError } from '../../../sol/problem.ts';
import type { PackageFiles } from '../../../vnfd/csar/package-files.ts';
import { openZipPackage } from '../../../vnfd/csar/zip-reader.ts';
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
  if (includeSignatures(request)) return sendSignedArtifact(reply, record, files, path);
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

type ZipEntry = { name: string; data: Buffer } | { name: string; stream: Readable };

/** A zip of `entries`, streamed (an artifact may be large). */
function zipStream(entries: ZipEntry[]): Readable {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if ('data' in e) zip.addBuffer(e.data, e.name);
    else zip.addReadStream(e.stream, e.name);
  }
  zip.end();
  return zip.outputStream as unknown as Readable;
}

async function zipOf(entries: ZipEntry[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of zipStream(entries)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const includeSignatures = (request: FastifyRequest) =>
  (request.query as { include_signatures?: string } | undefined)?.include_signatures !== undefined;

/** The security files of `paths` (SOL005 include_signatures): their signature files, then the certificate. */
function securityFiles(record: PackageRecord, files: PackageFiles, paths: string[]): string[] {
  const out = paths.map((p) => record.files?.signatures?.[p]).filter((s): s is string => !!s && files.has(s));
  if (record.signingCertificate && files.has(record.signingCertificate)) out.push(record.signingCertificate);
  return [...new Set(out)];
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
    const signed = includeSignatures(request);
    if (wantsText) {
      if (signed) {
        throw new ApiError(
          406,
          `The VNFD of VNF package ${record.id} with its signatures is a ZIP archive: ask for application/zip.`,
        );
      }
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
    const vnfdNames = [...(index.toscaMeta ? [index.toscaMeta] : []), ...index.vnfdFiles];
    const names = signed ? [...vnfdNames, ...securityFiles(record, files, vnfdNames)] : vnfdNames;
    // Streams, not text: a signature file may be DER.
    const entries = await Promise.all(
      names.map(async (name) => ({ name, stream: await files.openStream(name) })),
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
  const withSignatures = includeSignatures(request);
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

/** The artifact with its signature file and the certificate, as one ZIP archive (SOL005 v3.3.1). */
async function sendSignedArtifact(
  reply: FastifyReply,
  record: PackageRecord,
  files: PackageFiles,
  path: string,
) {
  try {
    const security = securityFiles(record, files, [path]);
    const entries: ZipEntry[] = [{ name: path, stream: await files.openStream(path) }];
    for (const name of security) entries.push({ name, stream: await files.openStream(name) });
    const out = zipStream(entries);
    const close = () => files.close().catch(() => {});
    out.once('close', close);
    out.once('end', close);
    return reply.code(200).header('Content-Type', 'application/zip').send(out);
  } catch (err) {
    await files.close().catch(() => {});
    throw err;
  }
}
