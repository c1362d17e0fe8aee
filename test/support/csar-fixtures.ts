/**
 * Small SOL004 package folders for CSAR tests: a VNFD (plain text: the container reader does
 * not parse TOSCA), a script, a small image, TOSCA.meta with every key, and a manifest whose
 * hashes match. Tests edit the file map before writing it to make each defect.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { openDirectoryPackage } from '../../src/vnfd/csar/directory-reader.ts';
import type { PackageFiles } from '../../src/vnfd/csar/package-files.ts';
import { tempDir } from './temp.ts';

export type FixtureFiles = Record<string, string | Buffer>;

export const VNFD = 'tosca_definitions_version: tosca_simple_yaml_1_3\ndescription: fixture VNFD\n';
export const SCRIPT = '#!/bin/sh\necho installing\n';
/** Not a real disk image: 4 KiB of bytes with an image extension, enough to be hashed as one. */
export const IMAGE = Buffer.alloc(4096, 7);
export const SCRIPT_PATH = 'Scripts/install.sh';
export const IMAGE_PATH = 'Files/images/disk.qcow2';

export function digest(algorithm: string, content: string | Buffer): string {
  return createHash(algorithm.toLowerCase().replace('-', '')).update(content).digest('hex');
}

const V2_METADATA = {
  vnf_provider_id: 'Bosun',
  vnf_product_name: 'Fixture VNF',
  vnf_release_date_time: '2026-01-02T03:04:05+00:00',
  vnf_package_version: '1.0',
};
const V3_METADATA = {
  vnfd_id: 'b1bb0ce7-ebca-4fa7-95ed-4840d7000001',
  vnf_provider_name: 'Bosun',
  vnf_product_name: 'Fixture VNF',
  vnf_software_version: '2.1',
  vnf_package_version: '1.0',
  vnf_release_date_time: '2026-01-02T03:04:05+00:00',
  compatible_specification_versions: '2.6.1,3.3.1',
  vnfm_info: 'Bosun',
};

/** Manifest text listing `sources` (hashed from `files`) after a metadata block. */
export function manifestText(
  files: FixtureFiles,
  sources: string[],
  options: { algorithm?: string; metadata?: 'v2' | 'v3' | 'none'; nonMano?: boolean } = {},
): string {
  const algorithm = options.algorithm ?? 'SHA-256';
  const metadata = options.metadata ?? 'v2';
  const parts: string[] = [];
  if (metadata !== 'none') {
    const values = metadata === 'v2' ? V2_METADATA : V3_METADATA;
    parts.push(
      `metadata:\n${Object.entries(values)
        .map(([k, v]) => `  ${k}: ${v}\n`)
        .join('')}`,
    );
  }
  for (const source of sources) {
    parts.push(`Source: ${source}\nAlgorithm: ${algorithm}\nHash: ${digest(algorithm, files[source])}\n`);
  }
  if (options.nonMano) {
    parts.push('non_mano_artifact_sets:\n  onap_ves_events:\n    Source: Artifacts/Events/ves.yaml\n');
  }
  return parts.join('\n');
}

/**
 * A valid package. `tosca-metadata`: TOSCA.meta with every SOL004 key (manifest vnf.mf, change
 * log, licences, tests, other definitions) and a hashed per-file block for the script;
 * `root-yaml`: vnf.yaml + vnf.mf at the root.
 */
export function validPackage(
  options: { layout?: 'tosca-metadata' | 'root-yaml'; metadata?: 'v2' | 'v3'; algorithm?: string } = {},
): FixtureFiles {
  const algorithm = options.algorithm ?? 'SHA-256';
  const files: FixtureFiles = {
    [SCRIPT_PATH]: SCRIPT,
    [IMAGE_PATH]: IMAGE,
    'Artifacts/Events/ves.yaml': 'events: []\n',
  };
  if (options.layout === 'root-yaml') {
    files['vnf.yaml'] = VNFD;
    files['vnf.mf'] = manifestText(files, [SCRIPT_PATH, IMAGE_PATH], { ...options, nonMano: true });
    return files;
  }
  Object.assign(files, {
    'Definitions/vnfd.yaml': VNFD,
    'Definitions/other.yaml': VNFD,
    'ChangeLog.txt': 'first release\n',
    'Licenses/LICENSE.txt': 'Apache-2.0\n',
    'Tests/smoke.txt': 'ok\n',
  });
  files['TOSCA-Metadata/TOSCA.meta'] = [
    'TOSCA-Meta-File-Version: 1.0',
    'CSAR-Version: 1.1',
    'Created-By: Bosun tests',
    'Entry-Definitions: Definitions/vnfd.yaml',
    'ETSI-Entry-Manifest: vnf.mf',
    'ETSI-Entry-Change-Log: ChangeLog.txt',
    'ETSI-Entry-Licenses: Licenses',
    'ETSI-Entry-Tests: Tests',
    'Other-Definitions: Definitions/other.yaml',
    '',
    `Name: ${SCRIPT_PATH}`,
    'Content-Type: application/x-sh',
    `Algorithm: ${algorithm}`,
    `Hash: ${digest(algorithm, SCRIPT)}`,
    '',
  ].join('\n');
  files['vnf.mf'] = manifestText(files, [SCRIPT_PATH, IMAGE_PATH], { ...options, nonMano: true });
  return files;
}

/** Writes the files under a new temp dir. */
export async function writeFixture(
  files: FixtureFiles,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = tempDir('bosun-csar-');
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The fixture as PackageFiles through the real directory reader. */
export async function openFixture(
  files: FixtureFiles,
): Promise<{ files: PackageFiles; cleanup: () => Promise<void> }> {
  const written = await writeFixture(files);
  const opened = await openDirectoryPackage(written.dir);
  if (!opened.files) throw new Error(`fixture unreadable: ${JSON.stringify(opened.diagnostics)}`);
  return { files: opened.files, cleanup: written.cleanup };
}

/** The fixture written to a temp folder and opened with the real directory reader. */
export async function fixtureFiles(files: FixtureFiles): Promise<PackageFiles> {
  return (await openFixture(files)).files;
}
