/**
 * Which SOL004 layout a package uses, and from it the entry definitions, the manifest and the
 * certificate file: TOSCA-Metadata/TOSCA.meta when present, else a single root YAML with a
 * manifest (and optionally a certificate) of the same base name.
 */
import { Diagnostics } from '../diagnostics.ts';
import type { CsarInfo, ToscaMeta } from './csar-info.ts';
import { packagePath } from './manifest-artifact.ts';
import type { PackageFiles } from './package-files.ts';
import { TOSCA_META_PATH } from './tosca-meta.ts';

export interface PackageLayout {
  layout: CsarInfo['layout'];
  entryDefinitions?: string;
  manifestFile?: string;
  certificateFile?: string;
  diagnostics: Diagnostics;
}

export function hasToscaMeta(files: PackageFiles): boolean {
  return files.has(TOSCA_META_PATH);
}

/** `meta` is the parsed TOSCA.meta when the package has one (problems in it are reported by its parser). */
export function decideLayout(files: PackageFiles, meta?: ToscaMeta): PackageLayout {
  const diagnostics = new Diagnostics();
  if (hasToscaMeta(files)) {
    const existing = (written?: string) =>
      written && files.has(packagePath(written)) ? packagePath(written) : undefined;
    const manifest = meta?.keys['ETSI-Entry-Manifest'];
    return {
      layout: 'tosca-metadata',
      entryDefinitions: existing(meta?.keys['Entry-Definitions']),
      manifestFile: manifest && /\.mf$/i.test(manifest) ? existing(manifest) : undefined,
      certificateFile: existing(meta?.keys['ETSI-Entry-Certificate']),
      diagnostics,
    };
  }
  const root = files.names.filter((n) => !n.includes('/'));
  const yamls = root.filter((n) => /\.ya?ml$/i.test(n));
  if (yamls.length !== 1) {
    diagnostics.error(
      'CSAR_ROOT_YAML_COUNT',
      yamls.length === 0
        ? `the package has neither ${TOSCA_META_PATH} nor a YAML file at its root`
        : `without ${TOSCA_META_PATH} the package must have exactly one YAML file at its root; found ${yamls.length}: ${yamls.join(', ')}`,
    );
    return { layout: 'root-yaml', diagnostics };
  }
  const entry = yamls[0];
  const base = entry.replace(/\.ya?ml$/i, '');
  const manifestFile = root.find((n) => n === `${base}.mf`);
  for (const other of root.filter((n) => /\.mf$/i.test(n) && n !== manifestFile)) {
    diagnostics.error(
      'CSAR_MANIFEST_NAME_MISMATCH',
      `manifest "${other}" must have the same base name as the entry definitions "${entry}" (expected ${base}.mf)`,
      { file: other },
    );
  }
  if (!manifestFile) {
    // SOL004 requires it; Tacker accepts its absence, so this is only a warning.
    diagnostics.warning('CSAR_NO_MANIFEST', `the package has no manifest ${base}.mf next to ${entry}`);
  }
  const certificateFile = root.find((n) => n === `${base}.cert`);
  return { layout: 'root-yaml', entryDefinitions: entry, manifestFile, certificateFile, diagnostics };
}
