/**
 * Reads files a Kubernetes operation names (`lcm-kubernetes-def-files`, a Helm chart) from the
 * package's blob: each must be a file of the package the VNFD declares as an artifact or a
 * manifest (as Tacker checks), and no larger than kubernetes.maxManifestBytes.
 */
import { packageBlobKey } from '../../../../packages/package-record.ts';
import { openZipPackage } from '../../../../vnfd/csar/zip-reader.ts';
import type { Vnfd } from '../../../../vnfd/model/vnfd.ts';
import { InfraError } from '../../../contract.ts';
import type { KubernetesDeps } from '../deps.ts';

/** Most files one operation reads. */
const MAX_FILES = 64;

const invalid = (message: string, detail?: Record<string, unknown>) =>
  new InfraError('INVALID_REQUEST', message, detail);

/** The package files a VNFD lets operations name. */
function knownFiles(vnfd: Vnfd): Set<string> {
  return new Set([
    ...vnfd.infraArtifacts.kubernetesManifests,
    ...vnfd.infraArtifacts.helmCharts,
    ...vnfd.additionalArtifacts.map((a) => a.artifactPath),
  ]);
}

/** The files' bytes, by path, in the order asked. */
export async function readPackageFiles(
  deps: KubernetesDeps,
  packageId: string | undefined,
  vnfd: Vnfd,
  paths: readonly string[],
  what: string,
): Promise<Map<string, Buffer>> {
  if (paths.length > MAX_FILES)
    throw invalid(`${what} names ${paths.length} files; at most ${MAX_FILES} are read.`);
  const known = knownFiles(vnfd);
  const unknown = paths.filter((p) => !known.has(p));
  if (unknown.length) {
    throw invalid(
      `${what} names ${unknown.join(', ')}, not a manifest or artifact of the VNF package (known: ${[...known].join(', ') || 'none'}).`,
      { files: unknown },
    );
  }
  if (!deps.blobs || !packageId) {
    throw invalid(`${what}: the VNF package's files cannot be read here (no package store).`);
  }
  const opened = await openZipPackage(await deps.blobs.localFile(packageBlobKey(packageId)));
  if (!opened.files) throw new InfraError('NOT_FOUND', `The VNF package ${packageId} cannot be read.`);
  const files = opened.files;
  try {
    const out = new Map<string, Buffer>();
    for (const path of paths) {
      if (!files.has(path)) throw invalid(`${what}: ${path} is declared but missing from the VNF package.`);
      const size = files.size(path);
      if (size > deps.config.maxManifestBytes) {
        throw invalid(
          `${what}: ${path} is ${size} bytes; kubernetes.maxManifestBytes allows ${deps.config.maxManifestBytes}.`,
        );
      }
      const chunks: Buffer[] = [];
      for await (const chunk of await files.openStream(path)) chunks.push(chunk as Buffer);
      out.set(path, Buffer.concat(chunks));
    }
    return out;
  } finally {
    await files.close();
  }
}
