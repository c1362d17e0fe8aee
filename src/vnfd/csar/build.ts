/**
 * `bosun package build`: zips a package directory reproducibly (entries sorted, fixed time and
 * mode, no directory entries) after writing the current digests into the manifest's `Source:`
 * blocks and TOSCA.meta's hashed per-file blocks.
 *
 * The hashes are updated IN THE SOURCE DIRECTORY, not only in the zip: vendors keep the package
 * folder under version control and want the manifest they ship to be the one in their tree. A
 * CMS signature block in a manifest whose hashes changed is removed (it no longer signs the
 * manifest); the vendor signs again after building.
 */
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { HashAlgorithm } from '../../sol/hash-algorithms.ts';
import { formatDiagnostic } from '../diagnostics.ts';
import { openDirectoryPackage } from './directory-reader.ts';
import { hashFile, normaliseAlgorithm } from './hash.ts';
import { decideLayout } from './layout.ts';
import { isExternalSource, isImagePath, packagePath } from './manifest-artifact.ts';
import { entryOf, splitBlocks } from './meta-blocks.ts';
import type { PackageFiles } from './package-files.ts';
import { parseToscaMeta, TOSCA_META_PATH } from './tosca-meta.ts';

export interface BuildOptions {
  /** Algorithm for blocks that have a Source but no (valid) Algorithm; default sha-256. */
  algorithm?: HashAlgorithm;
}

export interface BuildResult {
  /** Files in the zip. */
  entries: number;
  /** Package path of the manifest, when the package has one. */
  manifest?: string;
  /** Artifact paths whose Hash was written or changed (in the manifest or TOSCA.meta), sorted. */
  updated: string[];
}

/** Fixed entry time: the same folder always gives the same bytes. */
const FIXED_MTIME = new Date(2000, 0, 1, 0, 0, 0);
const CMS_BEGIN = '-----BEGIN CMS-----';

export async function buildPackage(
  dir: string,
  outZip: string,
  options: BuildOptions = {},
): Promise<BuildResult> {
  const opened = await openDirectoryPackage(dir);
  const errors = opened.diagnostics.filter((d) => d.severity === 'error');
  if (!opened.files || errors.length > 0) {
    throw new Error(`cannot build ${dir}:\n${errors.map(formatDiagnostic).join('\n')}`);
  }
  const files = opened.files;
  const written = (algorithm: HashAlgorithm) => algorithm.toUpperCase();
  const fallback = options.algorithm ?? 'sha-256';
  const updated = new Set<string>();

  let meta: ReturnType<typeof parseToscaMeta>['meta'] | undefined;
  if (files.has(TOSCA_META_PATH)) {
    const text = await files.readText(TOSCA_META_PATH);
    meta = parseToscaMeta(text, files).meta;
    const next = await rehash(text, files, { fallback, written, updated, addMissing: false });
    if (next !== text) await writeFile(join(dir, ...TOSCA_META_PATH.split('/')), next);
  }
  const manifest = decideLayout(files, meta).manifestFile;
  if (manifest) {
    const text = await files.readText(manifest);
    const next = await rehash(text, files, { fallback, written, updated, addMissing: true });
    if (next !== text) await writeFile(join(dir, ...manifest.split('/')), next);
  }

  const out = resolve(outZip);
  const names = files.names.filter((n) => resolve(dir, ...n.split('/')) !== out);
  const zip = new yazl.ZipFile();
  for (const name of names) {
    zip.addFile(join(dir, ...name.split('/')), name, {
      // Images are stored: they are compressed formats already, and stored entries verify at hashing speed.
      compress: !isImagePath(name),
      mtime: FIXED_MTIME,
      mode: 0o100644,
      forceDosTimestamp: true,
    });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(out));
  await files.close();
  return { entries: names.length, manifest, updated: [...updated].sort() };
}

interface RehashContext {
  fallback: HashAlgorithm;
  written: (a: HashAlgorithm) => string;
  updated: Set<string>;
  /** Manifest blocks lacking Algorithm/Hash get them; TOSCA.meta blocks without Hash are left alone. */
  addMissing: boolean;
}

/** Rewrites the Hash (and, when absent, Algorithm) lines of every block with a package Source. */
async function rehash(text: string, files: PackageFiles, ctx: RehashContext): Promise<string> {
  const cms = text.indexOf(CMS_BEGIN);
  const body = cms >= 0 ? text.slice(0, cms) : text;
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const lines = body.split(/\r?\n/);
  const { blocks } = splitBlocks(body);
  // Bottom-up, so inserted lines do not shift the lines still to edit.
  for (const block of [...blocks].reverse()) {
    const source = entryOf(block, 'Source') ?? entryOf(block, 'Name');
    // Indented Sources belong to non_mano_artifact_sets, which carry no hashes.
    if (!source?.value || source.indent > 0 || isExternalSource(source.value)) continue;
    const path = packagePath(source.value);
    if (!files.has(path)) continue;
    const algorithmLine = entryOf(block, 'Algorithm');
    const hashLine = entryOf(block, 'Hash');
    if (!hashLine && !ctx.addMissing) continue;
    const algorithm = (algorithmLine && normaliseAlgorithm(algorithmLine.value)) || ctx.fallback;
    const digest = await hashFile(files, path, algorithm);
    if (hashLine?.value.toLowerCase() === digest && algorithmLine && normaliseAlgorithm(algorithmLine.value))
      continue;
    ctx.updated.add(path);
    const last = block.entries[block.entries.length - 1].line;
    if (!algorithmLine || !normaliseAlgorithm(algorithmLine.value)) {
      const line = `Algorithm: ${ctx.written(algorithm)}`;
      if (algorithmLine) lines[algorithmLine.line - 1] = line;
      else lines.splice(last, 0, line);
    }
    const hashText = `Hash: ${digest}`;
    // Insertions only happen after the block's last line, so an existing Hash line has not moved.
    if (hashLine) lines[hashLine.line - 1] = hashText;
    else lines.splice(last + (algorithmLine ? 0 : 1), 0, hashText);
  }
  const next = lines.join(eol);
  if (next === body) return text;
  // The old signature no longer covers the manifest: drop it rather than ship an invalid one.
  return cms >= 0 ? `${next.trimEnd()}${eol}` : next;
}
