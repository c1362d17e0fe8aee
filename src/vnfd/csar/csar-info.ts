/**
 * What reading the CSAR container yields (contract between src/vnfd/csar/ and the VNFD model):
 * the layout, TOSCA.meta, the manifest, the artifacts with their declared and verified hashes,
 * and the signature verdict.
 */
import type { HashAlgorithm } from '../../sol/hash-algorithms.ts';
import type { Diagnostic } from '../diagnostics.ts';

export interface ToscaMeta {
  /** Every key of the first block (TOSCA-Meta-File-Version, CSAR-Version, Created-By, Entry-Definitions, ETSI-Entry-*, Other-Definitions…). */
  keys: Record<string, string>;
  /** Per-file blocks: Name (or Source) → their keys (Content-Type, Algorithm, Hash…). */
  fileBlocks: { name: string; keys: Record<string, string>; line: number }[];
}

export interface ManifestInfo {
  /** Package path of the .mf file. */
  file: string;
  /** metadata block: vnf_provider_id, vnf_product_name, vnf_release_date_time, vnf_package_version, and the SOL004 v3 names. */
  metadata: Record<string, string>;
  nonManoArtifactSets: Record<string, string[]>;
  /** Whether the manifest carries a CMS signature block (security option 1). */
  signed: boolean;
}

export interface ArtifactEntry {
  /** Package path (or URI for external artifacts). */
  path: string;
  /** Where it was declared: 'TOSCA.meta' or the manifest's path. */
  declaredIn: string;
  /** Algorithm as written (e.g. 'SHA-256'), and normalised. */
  algorithmAsWritten?: string;
  algorithm?: HashAlgorithm;
  hash?: string;
  /** Software image (by extension or by being a VNFD sw_image artifact). */
  image: boolean;
  /** true: the computed digest matched; false: mismatch (a diagnostic says so); undefined: not checked (no hash). */
  verified?: boolean;
  /** Per-artifact signature file (security option 2), when present. */
  signatureFile?: string;
}

export interface SignatureVerdict {
  /** What the policy was and what was found. */
  policy: 'off' | 'verify-if-present' | 'required';
  manifestSigned: boolean;
  /** true: verified against a trust anchor; false: present but invalid/untrusted; undefined: not checked. */
  valid?: boolean;
  signer?: string;
  certificateFile?: string;
}

export interface CsarInfo {
  layout: 'tosca-metadata' | 'root-yaml';
  /** Package path of the entry definitions file (absent when it cannot be determined). */
  entryDefinitions?: string;
  meta?: ToscaMeta;
  manifest?: ManifestInfo;
  artifacts: ArtifactEntry[];
  signature: SignatureVerdict;
  diagnostics: Diagnostic[];
}
