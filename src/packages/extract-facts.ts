/**
 * Reads an uploaded package and turns the report into what the package row stores: the
 * VnfPkgInfo facts, the VNFD model for LCM, and the index of servable files (artifacts, VNFD
 * files, manifest, certificate).
 */
import { readFile } from 'node:fs/promises';
import type { ProblemDetails } from '../sol/problem.ts';
import { openZipPackage } from '../vnfd/csar/zip-reader.ts';
import { readPackage } from '../vnfd/read-package.ts';
import type { ScannedZip } from '../zip/zip-stream-scan.ts';
import { failure, invalidPackage } from './failure.ts';
import { withExcerpts } from './failure-excerpts.ts';
import type { OnboardedFacts } from './onboarding.ts';
import type { PackageFileIndex } from './package-record.ts';
import { vnfdFiles } from './vnfd-files.ts';

export interface ReadOptions {
  signaturePolicy: 'off' | 'verify-if-present' | 'required';
  /** PEM file paths. */
  trustAnchors: string[];
  imageHashMismatch: 'error' | 'warning';
  /** Problems Tacker accepts are errors (packages.strict). */
  strict?: boolean;
}

/** `zipScan`: the entry digests computed while the package was uploaded, if any. */
export async function readUploadedPackage(
  path: string,
  options: ReadOptions,
  zipScan?: ScannedZip,
): Promise<{ ok: true; facts: OnboardedFacts } | { ok: false; problem: ProblemDetails }> {
  const trustAnchors = await Promise.all(options.trustAnchors.map((p) => readFile(p, 'utf8')));
  const report = await readPackage(path, {
    signaturePolicy: options.signaturePolicy,
    trustAnchors,
    imageHashMismatch: options.imageHashMismatch,
    strict: options.strict,
    zipScan,
  });
  if (!report.valid || !report.vnfd || !report.csar)
    return { ok: false, problem: invalidPackage(await withExcerpts(path, report.diagnostics)) };
  const { vnfd, csar } = report;
  const opened = await openZipPackage(path);
  if (!opened.files) return { ok: false, problem: failure(422, 'The VNF package cannot be reopened.') };
  let files: PackageFileIndex;
  try {
    const names = new Set(opened.files.names);
    const artifacts = new Set<string>();
    for (const a of csar.artifacts) if (names.has(a.path)) artifacts.add(a.path);
    for (const a of vnfd.additionalArtifacts) artifacts.add(a.artifactPath);
    for (const img of vnfd.softwareImages) if (names.has(img.packagePath)) artifacts.add(img.packagePath);
    const infra = vnfd.infraArtifacts;
    for (const p of [...infra.kubernetesManifests, ...infra.helmCharts, ...infra.terraformFiles]) {
      if (names.has(p)) artifacts.add(p);
    }
    const signatures: Record<string, string> = {};
    for (const a of csar.artifacts) {
      if (a.signatureFile && names.has(a.path) && names.has(a.signatureFile))
        signatures[a.path] = a.signatureFile;
    }
    files = {
      artifacts: [...artifacts].sort(),
      ...(Object.keys(signatures).length ? { signatures } : {}),
      vnfdFiles: await vnfdFiles(opened.files, vnfd.entryDefinitions),
      toscaMeta: names.has('TOSCA-Metadata/TOSCA.meta') ? 'TOSCA-Metadata/TOSCA.meta' : undefined,
      // Option 2 (a signed zip around the CSAR) is not read by the engine: packages are option 1.
      securityOption: 'OPTION_1',
      vnfmInfo: vnfd.vnf.vnfmInfo,
    };
  } finally {
    await opened.files.close();
  }
  const createdAt = new Date().toISOString();
  return {
    ok: true,
    facts: {
      vnfdId: vnfd.vnf.descriptorId,
      vnfProvider: vnfd.vnf.provider,
      vnfProductName: vnfd.vnf.productName,
      vnfSoftwareVersion: vnfd.vnf.softwareVersion,
      vnfdVersion: vnfd.vnf.descriptorVersion,
      softwareImages: vnfd.softwareImages.map((img) => ({ ...img, createdAt })),
      additionalArtifacts: vnfd.additionalArtifacts,
      entryDefinitions: vnfd.entryDefinitions,
      vnfdModel: vnfd,
      files,
      manifestFile: csar.manifest?.file,
      signingCertificate: csar.signature.certificateFile,
    },
  };
}
