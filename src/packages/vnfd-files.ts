/**
 * The files that make up a package's VNFD: the entry definitions and every package YAML it
 * imports, transitively (bundled SOL001 copies and URLs are not package files). Computed once
 * at onboarding so GET …/vnfd knows whether a text/plain answer is possible.
 */
import { parse } from 'yaml';
import type { PackageFiles } from '../vnfd/csar/package-files.ts';
import { resolveImport } from '../vnfd/tosca/imports.ts';

function importSpecs(doc: unknown): string[] {
  const imports = (doc as { imports?: unknown } | null)?.imports;
  if (!Array.isArray(imports)) return [];
  const specs: string[] = [];
  for (const item of imports) {
    if (typeof item === 'string') specs.push(item);
    else if (item && typeof item === 'object') {
      const file = (item as { file?: unknown }).file;
      if (typeof file === 'string') specs.push(file);
      else for (const v of Object.values(item)) if (typeof v === 'string') specs.push(v);
    }
  }
  return specs;
}

export async function vnfdFiles(files: PackageFiles, entry: string): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (path: string): Promise<void> => {
    if (seen.has(path) || !files.has(path)) return;
    seen.add(path);
    let doc: unknown;
    try {
      doc = parse(await files.readText(path));
    } catch {
      return;
    }
    for (const spec of importSpecs(doc)) {
      const target = resolveImport(spec, path, files);
      if (target.ok && !target.bundled) await visit(target.path);
    }
  };
  await visit(entry);
  return [...seen];
}
