/**
 * Reads a package end to end — container, TOSCA.meta and manifest, signatures and hashes, the
 * TOSCA templates, the VNFD model — and reports every problem in one pass. The one way
 * onboarding, LCM and the CLI read a package.
 */
import { stat } from 'node:fs/promises';
import type { ScannedZip } from '../zip/zip-stream-scan.ts';
import type { CsarInfo } from './csar/csar-info.ts';
import { openDirectoryPackage } from './csar/directory-reader.ts';
import type { CsarLimits } from './csar/limits.ts';
import { type ReadCsarOptions, readCsar } from './csar/read-csar.ts';
import { openZipPackage } from './csar/zip-reader.ts';
import { applyStrictness, type Diagnostic, Diagnostics } from './diagnostics.ts';
import { extractVnfd } from './model/extract.ts';
import type { Vnfd } from './model/vnfd.ts';
import { loadTosca } from './tosca/load.ts';

export interface ReadPackageOptions extends ReadCsarOptions {
  limits?: Partial<CsarLimits>;
  /** A zip's entry digests computed while it was uploaded (used where they match). */
  zipScan?: ScannedZip;
  /** Problems Tacker accepts (TOLERATED_CODES) are errors instead of warnings. */
  strict?: boolean;
}

export interface PackageReport {
  /** True when no error was found: the VNFD model is then present. */
  valid: boolean;
  diagnostics: Diagnostic[];
  csar?: CsarInfo;
  vnfd?: Vnfd;
}

/** `path` is a CSAR zip or a package directory. */
export async function readPackage(path: string, options: ReadPackageOptions = {}): Promise<PackageReport> {
  const diagnostics = new Diagnostics();
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (err) {
    diagnostics.error(
      'CSAR_UNREADABLE',
      `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? err}`,
    );
    return { valid: false, diagnostics: diagnostics.list };
  }
  const opened = isDirectory
    ? await openDirectoryPackage(path, options.limits)
    : await openZipPackage(path, options.limits, { zipScan: options.zipScan });
  diagnostics.add(opened.diagnostics);
  const files = opened.files;
  if (!files) return { valid: false, diagnostics: diagnostics.list };
  try {
    const csar = await readCsar(files, options);
    diagnostics.add(csar.diagnostics);
    if (!csar.entryDefinitions || !files.has(csar.entryDefinitions)) {
      return { valid: false, diagnostics: diagnostics.list, csar };
    }
    const tosca = await loadTosca(files, csar.entryDefinitions);
    diagnostics.add(tosca.diagnostics);
    const model = extractVnfd(tosca, csar, { fileNames: files.names });
    // After loader errors the model only repeats their consequences ("no VNF node"…): keep the causes.
    if (!tosca.diagnostics.some((d) => d.severity === 'error')) diagnostics.add(model.diagnostics);
    else diagnostics.add(model.diagnostics.filter((d) => d.severity === 'warning'));
    const list = applyStrictness(diagnostics.list, options.strict === true);
    const valid = !list.some((d) => d.severity === 'error') && model.vnfd !== undefined;
    return { valid, diagnostics: list, csar, vnfd: valid ? model.vnfd : undefined };
  } finally {
    await files.close();
  }
}
