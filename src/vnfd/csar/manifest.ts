/**
 * The SOL004 manifest (.mf): a `metadata:` block, artifact blocks (Source / Algorithm / Hash,
 * optionally Signature and Certificate for per-artifact signatures), `non_mano_artifact_sets:`,
 * and a trailing CMS signature block (security option 1) that signs the text before it.
 */
import { ownValue, setOwn } from '../../own-properties.ts';
import { Diagnostics } from '../diagnostics.ts';
import type { ArtifactEntry, ManifestInfo } from './csar-info.ts';
import { declaredArtifact, packagePath } from './manifest-artifact.ts';
import { entryOf, type MetaBlock, splitBlocks } from './meta-blocks.ts';
import type { PackageFiles } from './package-files.ts';

/** SOL004 v2 metadata names. */
const V2_KEYS = ['vnf_provider_id', 'vnf_product_name', 'vnf_release_date_time', 'vnf_package_version'];
/** SOL004 v3 names: their presence marks the newer generation, whose required set differs. */
const V3_MARKERS = [
  'vnfd_id',
  'vnf_provider_name',
  'vnf_software_version',
  'vnfm_info',
  'compatible_specification_versions',
];
const V3_KEYS = [
  'vnfd_id',
  'vnf_provider_name',
  'vnf_product_name',
  'vnf_software_version',
  'vnf_package_version',
  'vnf_release_date_time',
];

/** Keys of a manifest artifact block (Content-Type is tolerated: Tacker samples write it). */
const ARTIFACT_KEYS = ['Source', 'Algorithm', 'Hash', 'Signature', 'Certificate', 'Content-Type'];
const CMS_BEGIN = '-----BEGIN CMS-----';
const CMS_END = '-----END CMS-----';

export interface ParsedManifest {
  manifest: ManifestInfo;
  artifacts: ArtifactEntry[];
  /** Per-artifact certificate files (security option 2), by artifact path. */
  artifactCertificates: Map<string, string>;
  /** Security option 1: the PEM CMS block and the exact text it signs. */
  cms?: { pem: string; signedText: string; line: number };
  diagnostics: Diagnostics;
}

/** What reading a manifest builds up, block after block. */
interface ManifestReading {
  file: string;
  files: PackageFiles;
  diagnostics: Diagnostics;
  manifest: ManifestInfo;
  artifacts: ArtifactEntry[];
  artifactCertificates: Map<string, string>;
  metadataBlock?: MetaBlock;
  /** Inside non_mano_artifact_sets, and the set its Source lines go to. */
  nonMano: { inside: boolean; set?: string };
}

export function parseManifest(text: string, file: string, files: PackageFiles): ParsedManifest {
  const r: ManifestReading = {
    file,
    files,
    diagnostics: new Diagnostics(),
    manifest: { file, metadata: {}, nonManoArtifactSets: {}, signed: false },
    artifacts: [],
    artifactCertificates: new Map<string, string>(),
    nonMano: { inside: false },
  };
  const { body, cms } = splitCms(text, r);
  const { blocks, malformed } = splitBlocks(body);
  for (const m of malformed) {
    r.diagnostics.error(
      'MANIFEST_MALFORMED_LINE',
      `line is not "key: value": ${JSON.stringify(m.text.slice(0, 80))}`,
      {
        file,
        line: m.line,
      },
    );
  }
  for (const block of blocks) readBlock(block, r);
  checkMetadata(r.manifest, r.metadataBlock, r.diagnostics);
  const { manifest, artifacts, artifactCertificates, diagnostics } = r;
  return { manifest, artifacts, artifactCertificates, cms, diagnostics };
}

/** The text before a trailing CMS signature block (security option 1), and the block. */
function splitCms(text: string, r: ManifestReading): { body: string; cms: ParsedManifest['cms'] } {
  const begin = text.indexOf(CMS_BEGIN);
  if (begin < 0) return { body: text, cms: undefined };
  const line = text.slice(0, begin).split('\n').length;
  const end = text.indexOf(CMS_END, begin);
  const body = text.slice(0, begin);
  r.manifest.signed = true;
  if (end < 0) {
    r.diagnostics.error('MANIFEST_CMS_UNTERMINATED', `the CMS signature block has no "${CMS_END}" line`, {
      file: r.file,
      line,
    });
    return { body, cms: undefined };
  }
  if (text.slice(end + CMS_END.length).trim() !== '') {
    r.diagnostics.error(
      'MANIFEST_TEXT_AFTER_CMS',
      'the CMS signature block must be the last thing in the manifest',
      {
        file: r.file,
        line: text.slice(0, end).split('\n').length,
      },
    );
  }
  return { body, cms: { pem: text.slice(begin, end + CMS_END.length), signedText: body, line } };
}

/** One block: part of non_mano_artifact_sets, the metadata, or an artifact. */
function readBlock(block: MetaBlock, r: ManifestReading): void {
  const head = block.entries[0];
  // non_mano_artifact_sets may run over blank lines while its lines stay indented.
  if (r.nonMano.inside && head.indent === 0) r.nonMano.inside = false;
  if (head.key === 'non_mano_artifact_sets' && head.value === '') r.nonMano = { inside: true };
  if (r.nonMano.inside) readNonManoBlock(block, r);
  else if (head.key === 'metadata' && head.value === '') readMetadataBlock(block, r);
  else readArtifactBlock(block, r);
}

function readNonManoBlock(block: MetaBlock, r: ManifestReading): void {
  for (const e of block.entries) {
    if (e.key === 'non_mano_artifact_sets') continue;
    if (e.key === 'Source') {
      const set = r.nonMano.set;
      if (!set) {
        r.diagnostics.error(
          'MANIFEST_NON_MANO_SOURCE_WITHOUT_SET',
          'a non-MANO Source is not inside a named set',
          {
            file: r.file,
            line: e.line,
          },
        );
        continue;
      }
      const path = packagePath(e.value);
      ownValue(r.manifest.nonManoArtifactSets, set)?.push(path);
      if (!r.files.has(path) && !r.files.names.some((n) => n.startsWith(`${path.replace(/\/+$/, '')}/`))) {
        r.diagnostics.error(
          'CSAR_ARTIFACT_NOT_FOUND',
          `non-MANO artifact Source "${path}" is not in the package`,
          {
            file: r.file,
            line: e.line,
          },
        );
      }
    } else if (e.value === '') {
      r.nonMano.set = e.key;
      if (!Object.hasOwn(r.manifest.nonManoArtifactSets, e.key))
        setOwn(r.manifest.nonManoArtifactSets, e.key, []);
    } else {
      r.diagnostics.warning('MANIFEST_UNKNOWN_KEY', `unexpected key "${e.key}" in non_mano_artifact_sets`, {
        file: r.file,
        line: e.line,
      });
    }
  }
}

function readMetadataBlock(block: MetaBlock, r: ManifestReading): void {
  if (r.metadataBlock) {
    r.diagnostics.error('MANIFEST_DUPLICATE_METADATA', 'the manifest has more than one metadata block', {
      file: r.file,
      line: block.entries[0].line,
    });
    return;
  }
  r.metadataBlock = block;
  for (const e of block.entries.slice(1)) {
    if (e.value === '') {
      r.diagnostics.error('MANIFEST_METADATA_EMPTY', `manifest metadata "${e.key}" has no value`, {
        file: r.file,
        line: e.line,
      });
    }
    setOwn(r.manifest.metadata, e.key, e.value);
  }
}

/** An artifact block (Source, Algorithm, Hash, and Signature and Certificate files); else ignored. */
function readArtifactBlock(block: MetaBlock, r: ManifestReading): void {
  const head = block.entries[0];
  const source = entryOf(block, 'Source');
  const algorithm = entryOf(block, 'Algorithm');
  const hash = entryOf(block, 'Hash');
  if (!source && !algorithm && !hash) {
    r.diagnostics.warning(
      'MANIFEST_UNKNOWN_BLOCK',
      `block starting with "${head.key}" is not metadata, an artifact or non_mano_artifact_sets; it is ignored`,
      { file: r.file, line: head.line },
    );
    return;
  }
  for (const e of block.entries.filter((e) => !ARTIFACT_KEYS.includes(e.key))) {
    r.diagnostics.warning(
      'MANIFEST_UNKNOWN_KEY',
      `unexpected key "${e.key}" in the artifact block of ${source?.value}`,
      {
        file: r.file,
        line: e.line,
      },
    );
  }
  const signature = entryOf(block, 'Signature');
  const certificate = entryOf(block, 'Certificate');
  const entry = declaredArtifact(
    { line: block.line, source, algorithm, hash, signature, certificate },
    r.file,
    r.files,
    r.diagnostics,
  );
  if (!entry) return;
  r.artifacts.push(entry);
  if (certificate?.value) r.artifactCertificates.set(entry.path, packagePath(certificate.value));
  for (const [what, value, line] of [
    ['Signature', entry.signatureFile, signature?.line],
    ['Certificate', certificate?.value && packagePath(certificate.value), certificate?.line],
  ] as const) {
    if (value && !r.files.has(value)) {
      r.diagnostics.error(
        'CSAR_ARTIFACT_NOT_FOUND',
        `${what} file "${value}" of artifact "${entry.path}" is not in the package`,
        { file: r.file, line },
      );
    }
  }
}

function checkMetadata(manifest: ManifestInfo, block: MetaBlock | undefined, diagnostics: Diagnostics): void {
  if (!block) {
    // Tacker accepts manifests without metadata (the samples have none); SOL004 requires it.
    diagnostics.warning('MANIFEST_NO_METADATA', 'the manifest has no metadata block (SOL004 requires one)', {
      file: manifest.file,
    });
    return;
  }
  const keys = Object.keys(manifest.metadata);
  const v3 = keys.some((k) => V3_MARKERS.includes(k));
  const required = v3 ? V3_KEYS : V2_KEYS;
  const missing = required.filter((k) => !(k in manifest.metadata));
  // vnf_provider_id is accepted for vnf_provider_name: early v3 packages mix the two.
  const tolerated = missing.filter(
    (k) => !(k === 'vnf_provider_name' && 'vnf_provider_id' in manifest.metadata),
  );
  if (tolerated.length > 0) {
    diagnostics.error('MANIFEST_METADATA_MISSING_KEY', `manifest metadata lacks ${tolerated.join(', ')}`, {
      file: manifest.file,
      line: block.line,
    });
  }
  const when = manifest.metadata.vnf_release_date_time;
  if (when && Number.isNaN(Date.parse(when))) {
    diagnostics.warning(
      'MANIFEST_BAD_RELEASE_DATE',
      `vnf_release_date_time "${when}" is not an RFC 3339 date-time`,
      {
        file: manifest.file,
        line: block.entries.find((e) => e.key === 'vnf_release_date_time')?.line,
      },
    );
  }
}
