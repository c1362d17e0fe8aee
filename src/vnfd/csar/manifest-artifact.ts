/**
 * One artifact declaration (a manifest `Source:` block or a TOSCA.meta per-file block) turned
 * into an ArtifactEntry, with the checks both places share: a non-empty supported Algorithm, a
 * Hash, and a Source that is in the package (http(s) URLs are external and not looked up).
 */
import type { Diagnostics } from '../diagnostics.ts';
import type { ArtifactEntry } from './csar-info.ts';
import { normaliseAlgorithm } from './hash.ts';
import type { MetaLine } from './meta-blocks.ts';
import type { PackageFiles } from './package-files.ts';

/** SOL004/Tacker image extensions: images are hash-checked too, but not listed as additional artifacts. */
const IMAGE_EXTENSIONS = new Set([
  'raw',
  'vhd',
  'vhdx',
  'vmdk',
  'vdi',
  'iso',
  'ploop',
  'qcow2',
  'aki',
  'ari',
  'ami',
  'img',
]);

export function isImagePath(path: string): boolean {
  const dot = path.lastIndexOf('.');
  return dot >= 0 && IMAGE_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}

export function isExternalSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** Package path as written in a manifest: without './' or a leading '/'. */
export function packagePath(written: string): string {
  return written.replace(/^(\.\/|\/)+/, '');
}

/** Line of each entry's Hash (ArtifactEntry has no location field), for hash-mismatch diagnostics. */
const HASH_LINES = new WeakMap<ArtifactEntry, number>();

export function hashLineOf(entry: ArtifactEntry): number | undefined {
  return HASH_LINES.get(entry);
}

export interface ArtifactLines {
  /** Line of the block (where to point when a key is missing). */
  line: number;
  source?: MetaLine;
  algorithm?: MetaLine;
  hash?: MetaLine;
  signature?: MetaLine;
  certificate?: MetaLine;
}

/** Returns the entry even when it has problems (they are in `diagnostics`), unless it has no Source. */
export function declaredArtifact(
  lines: ArtifactLines,
  declaredIn: string,
  files: PackageFiles,
  diagnostics: Diagnostics,
): ArtifactEntry | undefined {
  const at = (l?: MetaLine) => ({ file: declaredIn, line: l?.line ?? lines.line });
  if (!lines.source?.value) {
    diagnostics.error(
      'CSAR_ARTIFACT_NO_SOURCE',
      'an artifact block has Algorithm/Hash but no Source (or Name)',
      at(lines.source),
    );
    return undefined;
  }
  const external = isExternalSource(lines.source.value);
  const path = external ? lines.source.value : packagePath(lines.source.value);
  const entry: ArtifactEntry = { path, declaredIn, image: isImagePath(path) };
  if (!external && !files.has(path)) {
    diagnostics.error(
      'CSAR_ARTIFACT_NOT_FOUND',
      `artifact Source "${path}" is not in the package`,
      at(lines.source),
    );
  }
  if (!lines.algorithm?.value) {
    diagnostics.error(
      'CSAR_ARTIFACT_NO_ALGORITHM',
      `artifact "${path}" has ${lines.algorithm ? 'an empty' : 'no'} Algorithm (expected SHA-224, SHA-256, SHA-384 or SHA-512)`,
      at(lines.algorithm),
    );
  } else {
    entry.algorithmAsWritten = lines.algorithm.value;
    entry.algorithm = normaliseAlgorithm(lines.algorithm.value);
    if (!entry.algorithm) {
      diagnostics.error(
        'CSAR_ARTIFACT_BAD_ALGORITHM',
        `artifact "${path}": Algorithm "${lines.algorithm.value}" is not supported (expected SHA-224, SHA-256, SHA-384 or SHA-512)`,
        at(lines.algorithm),
      );
    }
  }
  if (!lines.hash?.value) {
    diagnostics.error(
      'CSAR_ARTIFACT_NO_HASH',
      `artifact "${path}" has ${lines.hash ? 'an empty' : 'no'} Hash`,
      at(lines.hash),
    );
  } else {
    entry.hash = lines.hash.value;
    HASH_LINES.set(entry, lines.hash.line);
  }
  if (lines.signature?.value) entry.signatureFile = packagePath(lines.signature.value);
  return entry;
}
