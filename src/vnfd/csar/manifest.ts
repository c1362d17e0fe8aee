/**
 * The SOL004 manifest (.mf): a `metadata:` block, artifact blocks (Source / Algorithm / Hash,
 * optionally Signature and Certificate for per-artifact signatures), `non_mano_artifact_sets:`,
 * and a trailing CMS signature block (security option 1) that signs the text before it.
 */
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

export function parseManifest(text: string, file: string, files: PackageFiles): ParsedManifest {
  const diagnostics = new Diagnostics();
  const manifest: ManifestInfo = { file, metadata: {}, nonManoArtifactSets: {}, signed: false };
  const artifacts: ArtifactEntry[] = [];
  const artifactCertificates = new Map<string, string>();
  let body = text;
  let cms: ParsedManifest['cms'];
  const begin = text.indexOf(CMS_BEGIN);
  if (begin >= 0) {
    const line = text.slice(0, begin).split('\n').length;
    const end = text.indexOf(CMS_END, begin);
    body = text.slice(0, begin);
    manifest.signed = true;
    if (end < 0) {
      diagnostics.error('MANIFEST_CMS_UNTERMINATED', `the CMS signature block has no "${CMS_END}" line`, {
        file,
        line,
      });
    } else {
      cms = { pem: text.slice(begin, end + CMS_END.length), signedText: body, line };
      if (text.slice(end + CMS_END.length).trim() !== '') {
        diagnostics.error(
          'MANIFEST_TEXT_AFTER_CMS',
          'the CMS signature block must be the last thing in the manifest',
          {
            file,
            line: text.slice(0, end).split('\n').length,
          },
        );
      }
    }
  }
  const { blocks, malformed } = splitBlocks(body);
  for (const m of malformed) {
    diagnostics.error(
      'MANIFEST_MALFORMED_LINE',
      `line is not "key: value": ${JSON.stringify(m.text.slice(0, 80))}`,
      {
        file,
        line: m.line,
      },
    );
  }
  let metadataBlock: MetaBlock | undefined;
  let inNonMano = false;
  let currentSet: string | undefined;
  for (const block of blocks) {
    const head = block.entries[0];
    // non_mano_artifact_sets may run over blank lines while its lines stay indented.
    if (inNonMano && head.indent === 0) inNonMano = false;
    if (head.key === 'non_mano_artifact_sets' && head.value === '') {
      inNonMano = true;
      currentSet = undefined;
    }
    if (inNonMano) {
      for (const e of block.entries) {
        if (e.key === 'non_mano_artifact_sets') continue;
        if (e.key === 'Source') {
          if (!currentSet) {
            diagnostics.error(
              'MANIFEST_NON_MANO_SOURCE_WITHOUT_SET',
              'a non-MANO Source is not inside a named set',
              {
                file,
                line: e.line,
              },
            );
            continue;
          }
          const path = packagePath(e.value);
          manifest.nonManoArtifactSets[currentSet].push(path);
          if (!files.has(path) && !files.names.some((n) => n.startsWith(`${path.replace(/\/+$/, '')}/`))) {
            diagnostics.error(
              'CSAR_ARTIFACT_NOT_FOUND',
              `non-MANO artifact Source "${path}" is not in the package`,
              {
                file,
                line: e.line,
              },
            );
          }
        } else if (e.value === '') {
          currentSet = e.key;
          manifest.nonManoArtifactSets[currentSet] ??= [];
        } else {
          diagnostics.warning('MANIFEST_UNKNOWN_KEY', `unexpected key "${e.key}" in non_mano_artifact_sets`, {
            file,
            line: e.line,
          });
        }
      }
      continue;
    }
    if (head.key === 'metadata' && head.value === '') {
      if (metadataBlock) {
        diagnostics.error('MANIFEST_DUPLICATE_METADATA', 'the manifest has more than one metadata block', {
          file,
          line: head.line,
        });
        continue;
      }
      metadataBlock = block;
      for (const e of block.entries.slice(1)) {
        if (e.value === '') {
          diagnostics.error('MANIFEST_METADATA_EMPTY', `manifest metadata "${e.key}" has no value`, {
            file,
            line: e.line,
          });
        }
        manifest.metadata[e.key] = e.value;
      }
      continue;
    }
    const source = entryOf(block, 'Source');
    const algorithm = entryOf(block, 'Algorithm');
    const hash = entryOf(block, 'Hash');
    if (!source && !algorithm && !hash) {
      diagnostics.warning(
        'MANIFEST_UNKNOWN_BLOCK',
        `block starting with "${head.key}" is not metadata, an artifact or non_mano_artifact_sets; it is ignored`,
        {
          file,
          line: head.line,
        },
      );
      continue;
    }
    for (const e of block.entries.filter((e) => !ARTIFACT_KEYS.includes(e.key))) {
      diagnostics.warning(
        'MANIFEST_UNKNOWN_KEY',
        `unexpected key "${e.key}" in the artifact block of ${source?.value}`,
        {
          file,
          line: e.line,
        },
      );
    }
    const certificate = entryOf(block, 'Certificate');
    const entry = declaredArtifact(
      { line: block.line, source, algorithm, hash, signature: entryOf(block, 'Signature'), certificate },
      file,
      files,
      diagnostics,
    );
    if (!entry) continue;
    artifacts.push(entry);
    if (certificate?.value) artifactCertificates.set(entry.path, packagePath(certificate.value));
    for (const [what, value] of [
      ['Signature', entry.signatureFile],
      ['Certificate', certificate?.value && packagePath(certificate.value)],
    ] as const) {
      if (value && !files.has(value)) {
        diagnostics.error(
          'CSAR_ARTIFACT_NOT_FOUND',
          `${what} file "${value}" of artifact "${entry.path}" is not in the package`,
          {
            file,
            line: (what === 'Signature' ? entryOf(block, 'Signature') : certificate)?.line,
          },
        );
      }
    }
  }
  checkMetadata(manifest, metadataBlock, diagnostics);
  return { manifest, artifacts, artifactCertificates, cms, diagnostics };
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
