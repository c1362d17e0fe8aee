/**
 * The package's signatures under the configured policy: the manifest's CMS block (SOL004
 * security option 1) and per-artifact signature files (option 2), with the certificate from
 * ETSI-Entry-Certificate / the root .cert, a per-artifact Certificate, or the CMS itself.
 */

import type * as pkijs from 'pkijs';
import type { HashAlgorithm } from '../../sol/hash-algorithms.ts';
import type { Diagnostics } from '../diagnostics.ts';
import type { ArtifactEntry, SignatureVerdict } from './csar-info.ts';
import { hashFile } from './hash.ts';
import type { ParsedManifest } from './manifest.ts';
import { type PackageFiles, PackageReadError } from './package-files.ts';
import { type CmsVerdict, verifyCms } from './signature.ts';
import { tryParseCertificates } from './trust.ts';

export type SignaturePolicy = SignatureVerdict['policy'];

/**
 * A CMS signature without signed attributes covers the raw content, which must then be in
 * memory; above this size such a per-artifact signature is reported as uncheckable.
 */
export const MAX_UNSIGNED_ATTRIBUTES_BYTES = 64 * 2 ** 20;

export interface SignatureCheckInput {
  files: PackageFiles;
  policy: SignaturePolicy;
  trustAnchors: pkijs.Certificate[];
  manifest?: ParsedManifest;
  artifacts: ArtifactEntry[];
  /** ETSI-Entry-Certificate or the root `.cert`. */
  certificateFile?: string;
  now?: Date;
}

/** Signature and certificate files are small; a larger one is refused rather than loaded. */
export const MAX_SIGNATURE_FILE_BYTES = 1 * 2 ** 20;

async function readBytes(files: PackageFiles, name: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await files.openStream(name)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A signature or certificate file, or undefined after a diagnostic (too large, unreadable). */
async function readSmall(
  files: PackageFiles,
  name: string,
  diagnostics: Diagnostics,
): Promise<Uint8Array | undefined> {
  if (files.size(name) > MAX_SIGNATURE_FILE_BYTES) {
    diagnostics.error(
      'CSAR_SIGNATURE_FILE_TOO_LARGE',
      `${name} is larger than ${MAX_SIGNATURE_FILE_BYTES} bytes`,
      {
        file: name,
      },
    );
    return undefined;
  }
  try {
    return await readBytes(files, name);
  } catch (err) {
    const code = err instanceof PackageReadError ? err.code : 'CSAR_UNREADABLE';
    diagnostics.error(code, `cannot read ${name}: ${(err as Error).message}`, { file: name });
    return undefined;
  }
}

async function certificatesIn(
  files: PackageFiles,
  name: string | undefined,
  diagnostics: Diagnostics,
): Promise<pkijs.Certificate[]> {
  if (!name || !files.has(name)) return [];
  const bytes = await readSmall(files, name, diagnostics);
  if (!bytes) return [];
  const { certificates, error } = tryParseCertificates(bytes);
  if (error) {
    diagnostics.error('CSAR_CERTIFICATE_INVALID', `${name} does not hold an X.509 certificate: ${error}`, {
      file: name,
    });
  }
  return certificates;
}

export async function checkSignatures(
  input: SignatureCheckInput,
  diagnostics: Diagnostics,
): Promise<SignatureVerdict> {
  const { files, policy, manifest } = input;
  const cms = manifest?.cms;
  const verdict: SignatureVerdict = {
    policy,
    manifestSigned: manifest?.manifest.signed ?? false,
    certificateFile: input.certificateFile,
  };
  if (policy === 'off') return verdict;
  const packageCerts = await certificatesIn(files, input.certificateFile, diagnostics);
  const signedArtifacts = input.artifacts.filter((a) => a.signatureFile && files.has(a.signatureFile));
  if (cms) record(verdict, await checkManifestSignature(input, cms, packageCerts, diagnostics));
  for (const artifact of signedArtifacts) {
    const result = await checkArtifactSignature(input, artifact, packageCerts, diagnostics);
    if (result) record(verdict, result);
  }
  const optionTwo = input.artifacts.length > 0 && input.artifacts.every((a) => a.signatureFile);
  if (policy === 'required' && !cms && !optionTwo) {
    diagnostics.error(
      'CSAR_SIGNATURE_MISSING',
      manifest
        ? `the signature policy is "required" but ${manifest.manifest.file} has no CMS signature block and its artifacts are not all signed`
        : 'the signature policy is "required" but the package has no manifest to sign',
      { file: manifest?.manifest.file },
    );
  }
  return verdict;
}

/** Security option 1: the manifest's CMS block over the text before it. */
async function checkManifestSignature(
  input: SignatureCheckInput,
  cms: NonNullable<ParsedManifest['cms']>,
  packageCerts: pkijs.Certificate[],
  diagnostics: Diagnostics,
): Promise<CmsVerdict> {
  const text = cms.signedText;
  const candidates = [...new Set([text, `${text.trimEnd()}\n`, text.trimEnd()])].map((t) =>
    Buffer.from(t, 'utf8'),
  );
  const result = await verifyCms(
    cms.pem,
    { bytes: candidates },
    {
      what: 'the manifest',
      extraCertificates: packageCerts,
      trustAnchors: input.trustAnchors,
      now: input.now,
    },
  );
  if (!result.valid) {
    diagnostics.error('CSAR_SIGNATURE_INVALID', `manifest signature rejected: ${result.reason}`, {
      file: input.manifest?.manifest.file,
      line: cms.line,
    });
  }
  return result;
}

/** Security option 2: an artifact's signature file; undefined when it cannot be checked. */
async function checkArtifactSignature(
  input: SignatureCheckInput,
  artifact: ArtifactEntry,
  packageCerts: pkijs.Certificate[],
  diagnostics: Diagnostics,
): Promise<CmsVerdict | undefined> {
  const { files, manifest } = input;
  const signatureFile = artifact.signatureFile!;
  if (!files.has(artifact.path)) return undefined;
  const signatureBytes = await readSmall(files, signatureFile, diagnostics);
  if (!signatureBytes) return undefined;
  const own = await certificatesIn(files, manifest?.artifactCertificates.get(artifact.path), diagnostics);
  // The artifact is only streamed into a digest: signed images are never loaded in memory.
  const digest = (algorithm: HashAlgorithm) => hashFile(files, artifact.path, algorithm);
  const read =
    files.size(artifact.path) <= MAX_UNSIGNED_ATTRIBUTES_BYTES
      ? () => readBytes(files, artifact.path)
      : undefined;
  const result = await verifyCms(
    signatureBytes,
    { digest, read },
    {
      what: `artifact ${artifact.path}`,
      extraCertificates: [...own, ...packageCerts],
      trustAnchors: input.trustAnchors,
      now: input.now,
    },
  );
  if (!result.valid) {
    diagnostics.error(
      'CSAR_ARTIFACT_SIGNATURE_INVALID',
      `signature ${signatureFile} rejected: ${result.reason}`,
      {
        file: signatureFile,
      },
    );
  }
  return result;
}

/** Valid only while every checked signature (manifest and artifacts) holds; signer of the first. */
function record(verdict: SignatureVerdict, result: CmsVerdict): void {
  verdict.valid = (verdict.valid ?? true) && result.valid;
  verdict.signer ??= result.signer;
}
