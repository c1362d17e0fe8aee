/**
 * Reads the CSAR container in one pass: layout, TOSCA.meta, manifest, artifact hashes
 * (streamed, images included) and signatures. Every problem becomes a diagnostic; nothing
 * stops at the first. The VNFD itself (TOSCA) is read elsewhere from `entryDefinitions`.
 */

import type * as pkijs from 'pkijs';
import { Diagnostics } from '../diagnostics.ts';
import { mergeArtifacts, verifyArtifacts } from './artifacts.ts';
import type { ArtifactEntry, CsarInfo } from './csar-info.ts';
import { decideLayout, hasToscaMeta } from './layout.ts';
import { type ParsedManifest, parseManifest } from './manifest.ts';
import { type PackageFiles, PackageReadError } from './package-files.ts';
import { checkSignatures, type SignaturePolicy } from './signature-package.ts';
import { parseToscaMeta, TOSCA_META_PATH } from './tosca-meta.ts';
import { tryParseCertificates } from './trust.ts';

export interface ReadCsarOptions {
  /** Default 'verify-if-present'. */
  signaturePolicy?: SignaturePolicy;
  /** Trusted CA certificates, PEM (a string may hold several). */
  trustAnchors?: string[];
  /**
   * Severity of a software-image digest mismatch; default 'error' (issue 3: images are verified).
   * 'warning' exists because Tacker never checks images, and packages made for it (one valid
   * Tacker sample among them) declare the digest of an image other than the one shipped.
   */
  imageHashMismatch?: 'error' | 'warning';
  /** Clock for certificate validity (tests); default now. */
  now?: Date;
}

async function readText(
  files: PackageFiles,
  name: string,
  diagnostics: Diagnostics,
): Promise<string | undefined> {
  try {
    return await files.readText(name);
  } catch (err) {
    const code = err instanceof PackageReadError ? err.code : 'CSAR_UNREADABLE';
    diagnostics.error(code, `cannot read ${name}: ${(err as Error).message}`, { file: name });
    return undefined;
  }
}

function anchorsFrom(pems: string[], diagnostics: Diagnostics): pkijs.Certificate[] {
  return pems.flatMap((pem, i) => {
    const { certificates, error } = tryParseCertificates(pem);
    // A broken trust anchor is the operator's configuration, not the package: say which one.
    if (error)
      diagnostics.error(
        'CSAR_TRUST_ANCHOR_INVALID',
        `trust anchor #${i + 1} is not a PEM certificate: ${error}`,
      );
    return certificates;
  });
}

export async function readCsar(files: PackageFiles, options: ReadCsarOptions = {}): Promise<CsarInfo> {
  const diagnostics = new Diagnostics();
  const policy = options.signaturePolicy ?? 'verify-if-present';
  let meta: CsarInfo['meta'];
  let metaArtifacts: ArtifactEntry[] = [];
  if (hasToscaMeta(files)) {
    const text = await readText(files, TOSCA_META_PATH, diagnostics);
    if (text !== undefined) {
      const parsed = parseToscaMeta(text, files);
      diagnostics.add(parsed.diagnostics.list);
      meta = parsed.meta;
      metaArtifacts = parsed.artifacts;
    }
  }
  const layout = decideLayout(files, meta);
  diagnostics.add(layout.diagnostics.list);
  let manifest: ParsedManifest | undefined;
  if (layout.manifestFile) {
    const text = await readText(files, layout.manifestFile, diagnostics);
    if (text !== undefined) {
      manifest = parseManifest(text, layout.manifestFile, files);
      diagnostics.add(manifest.diagnostics.list);
    }
  }
  const artifacts = mergeArtifacts(metaArtifacts, manifest?.artifacts ?? []);
  await verifyArtifacts(files, artifacts, diagnostics, options.imageHashMismatch);
  const signature = await checkSignatures(
    {
      files,
      policy,
      trustAnchors: policy === 'off' ? [] : anchorsFrom(options.trustAnchors ?? [], diagnostics),
      manifest,
      artifacts,
      certificateFile: layout.certificateFile,
      now: options.now,
    },
    diagnostics,
  );
  return {
    layout: layout.layout,
    entryDefinitions: layout.entryDefinitions,
    meta,
    manifest: manifest?.manifest,
    artifacts,
    signature,
    diagnostics: diagnostics.list,
  };
}
