/**
 * The package's hashed artifacts: those declared in TOSCA.meta per-file blocks and in the
 * manifest, de-duplicated, each verified by streaming its digest. Unlike Tacker, software
 * images are verified too (SOL004 requires it; Tacker skips image extensions).
 */
import type { Diagnostics } from '../diagnostics.ts';
import type { ArtifactEntry, CsarInfo } from './csar-info.ts';
import { hashFile } from './hash.ts';
import { hashLineOf, isExternalSource } from './manifest-artifact.ts';
import { type PackageFiles, PackageReadError } from './package-files.ts';

export { isImagePath } from './manifest-artifact.ts';

/** Same path with the same algorithm and digest declared twice (TOSCA.meta and manifest, or twice in one) counts once. */
export function mergeArtifacts(...lists: ArtifactEntry[][]): ArtifactEntry[] {
  const seen = new Set<string>();
  const merged: ArtifactEntry[] = [];
  for (const entry of lists.flat()) {
    const key = `${entry.path}\0${entry.algorithm ?? entry.algorithmAsWritten}\0${entry.hash?.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(entry);
  }
  return merged;
}

/**
 * Sets `verified` on every entry that can be checked (in the package, supported algorithm, a
 * hash); a mismatch is CSAR_HASH_MISMATCH naming file, algorithm and both digests.
 */
export async function verifyArtifacts(
  files: PackageFiles,
  artifacts: ArtifactEntry[],
  diagnostics: Diagnostics,
  /** Severity of an image digest mismatch (see ReadCsarOptions.imageHashMismatch). */
  imageHashMismatch: 'error' | 'warning' = 'error',
): Promise<void> {
  // One digest per (file, algorithm), even if declared in both places.
  const digests = new Map<string, Promise<string>>();
  for (const entry of artifacts) {
    if (!entry.algorithm || !entry.hash || isExternalSource(entry.path) || !files.has(entry.path)) continue;
    const key = `${entry.path}\0${entry.algorithm}`;
    if (!digests.has(key)) digests.set(key, hashFile(files, entry.path, entry.algorithm));
    let actual: string;
    try {
      actual = await digests.get(key)!;
    } catch (err) {
      const code = err instanceof PackageReadError ? err.code : 'CSAR_UNREADABLE';
      diagnostics.error(code, `cannot read ${entry.path} to check its hash: ${(err as Error).message}`, {
        file: entry.path,
      });
      continue;
    }
    entry.verified = actual === entry.hash.toLowerCase();
    if (!entry.verified) {
      const report = entry.image && imageHashMismatch === 'warning' ? 'warning' : 'error';
      diagnostics[report](
        'CSAR_HASH_MISMATCH',
        `${entry.image ? 'image' : 'artifact'} ${entry.path}: ${entry.algorithmAsWritten} digest is ${actual} but ${entry.declaredIn} declares ${entry.hash}`,
        { file: entry.declaredIn, line: hashLineOf(entry) },
      );
    }
  }
}

export interface AdditionalArtifact {
  artifactPath: string;
  checksum: { algorithm: string; hash: string };
}

/**
 * What VnfPkgInfo.additionalArtifacts lists (and /artifacts/{path} may serve): the hashed
 * non-image entries, one per path, sorted by path, with the algorithm as written.
 */
export function additionalArtifacts(info: Pick<CsarInfo, 'artifacts'>): AdditionalArtifact[] {
  const byPath = new Map<string, AdditionalArtifact>();
  for (const a of info.artifacts) {
    if (a.image || !a.hash || !a.algorithmAsWritten || byPath.has(a.path)) continue;
    byPath.set(a.path, { artifactPath: a.path, checksum: { algorithm: a.algorithmAsWritten, hash: a.hash } });
  }
  return [...byPath.values()].sort((x, y) =>
    x.artifactPath < y.artifactPath ? -1 : x.artifactPath > y.artifactPath ? 1 : 0,
  );
}
