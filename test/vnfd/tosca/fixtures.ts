/**
 * Helpers for TOSCA loader tests: write a package folder from a map of file contents, open it
 * with the directory reader and load an entry; plus small YAML snippets every fixture needs.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openDirectoryPackage } from '../../../src/vnfd/csar/directory-reader.ts';
import type { Diagnostic } from '../../../src/vnfd/diagnostics.ts';
import { type LoadToscaOptions, loadTosca } from '../../../src/vnfd/tosca/load.ts';
import type { ToscaLoadResult } from '../../../src/vnfd/tosca/model.ts';

export async function loadFixture(
  files: Record<string, string>,
  entry = 'Definitions/main.yaml',
  options?: LoadToscaOptions,
): Promise<ToscaLoadResult> {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-tosca-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    const opened = await openDirectoryPackage(dir);
    if (!opened.files) throw new Error(`cannot open fixture: ${JSON.stringify(opened.diagnostics)}`);
    try {
      return await loadTosca(opened.files, entry, options);
    } finally {
      await opened.files.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function errors(r: ToscaLoadResult, code?: string): Diagnostic[] {
  return r.diagnostics.filter((d) => d.severity === 'error' && (code === undefined || d.code === code));
}

export function warnings(r: ToscaLoadResult, code?: string): Diagnostic[] {
  return r.diagnostics.filter((d) => d.severity === 'warning' && (code === undefined || d.code === code));
}

/** A service template with the SOL001 v2.6.1 types imported by URL (bundled copy). */
export function template(body: string, extraImports: string[] = []): string {
  return [
    'tosca_definitions_version: tosca_simple_yaml_1_2',
    'imports:',
    '  - https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/etsi_nfv_sol001_common_types.yaml',
    '  - https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/etsi_nfv_sol001_vnfd_types.yaml',
    ...extraImports.map((i) => `  - ${i}`),
    body,
  ].join('\n');
}

/** A plain template without imports (normative types only). */
export function plain(body: string): string {
  return `tosca_definitions_version: tosca_simple_yaml_1_3\n${body}`;
}
