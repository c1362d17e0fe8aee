/**
 * Where a TOSCA `imports` entry points. Imports are package files relative to the importing
 * file; the well-known ETSI SOL001 URLs resolve to the copy the package ships (same base name,
 * preferring the importing file's folder) or else to Bosun's bundled copy of that version —
 * never to the network. Any other URL is refused.
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import type { PackageFiles } from '../csar/package-files.ts';

/** Prefix of the pseudo package paths of bundled SOL001 files (`bosun:sol001/v2.6.1/…`). */
export const BUNDLED_PREFIX = 'bosun:sol001/';

const BUNDLED_VERSIONS = ['v2.6.1', 'v2.7.1'];
const SOL001_FILES = ['etsi_nfv_sol001_common_types.yaml', 'etsi_nfv_sol001_vnfd_types.yaml'];
const SOL001_URL =
  /^https?:\/\/forge\.etsi\.org\/rep\/nfv\/SOL001\/raw\/(v?\d+\.\d+\.\d+)\/(etsi_nfv_sol001_(?:common|vnfd)_types\.yaml)$/;

export type ImportTarget =
  | { ok: true; path: string; bundled: boolean }
  | { ok: false; code: string; message: string };

/** The file an import names, written `spec` in `from` (a package path or a bundled path). */
export function resolveImport(spec: string, from: string, files: PackageFiles): ImportTarget {
  const url = SOL001_URL.exec(spec);
  if (url) {
    const version = url[1].startsWith('v') ? url[1] : `v${url[1]}`;
    const base = url[2];
    const shipped = shippedCopy(base, from, files);
    if (shipped) return { ok: true, path: shipped, bundled: false };
    if (BUNDLED_VERSIONS.includes(version)) {
      return { ok: true, path: `${BUNDLED_PREFIX}${version}/${base}`, bundled: true };
    }
    return {
      ok: false,
      code: 'TOSCA_IMPORT_URL',
      message: `import ${spec}: SOL001 ${version} is not known to Bosun (known: ${BUNDLED_VERSIONS.join(', ')}) and the package does not ship ${base}; add the file to the package`,
    };
  }
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(spec)) {
    return {
      ok: false,
      code: 'TOSCA_IMPORT_URL',
      message: `import ${spec}: only files inside the package and the ETSI SOL001 type URLs can be imported (Bosun never downloads definitions)`,
    };
  }
  if (from.startsWith(BUNDLED_PREFIX)) {
    // A bundled file importing its sibling (vnfd types → common types).
    const dir = posix.dirname(from.slice(BUNDLED_PREFIX.length));
    const target = posix.normalize(posix.join(dir, spec));
    const [version, name] = target.split('/');
    if (BUNDLED_VERSIONS.includes(version) && SOL001_FILES.includes(name)) {
      return { ok: true, path: `${BUNDLED_PREFIX}${target}`, bundled: true };
    }
    return { ok: false, code: 'TOSCA_IMPORT_MISSING', message: `import ${spec}: not a bundled file` };
  }
  const joined = spec.startsWith('/') ? spec.slice(1) : posix.join(posix.dirname(from), spec);
  const path = posix.normalize(joined);
  if (path === '..' || path.startsWith('../') || posix.isAbsolute(path)) {
    return {
      ok: false,
      code: 'TOSCA_IMPORT_ESCAPES',
      message: `import ${spec} from ${from} points outside the package`,
    };
  }
  if (!files.has(path)) {
    return {
      ok: false,
      code: 'TOSCA_IMPORT_MISSING',
      message: `import ${spec} from ${from}: ${path} is not in the package`,
    };
  }
  return { ok: true, path, bundled: false };
}

/** A package file called `base`, in the importing file's folder if there is one there. */
function shippedCopy(base: string, from: string, files: PackageFiles): string | undefined {
  if (!from.startsWith(BUNDLED_PREFIX)) {
    const dir = posix.dirname(from);
    const near = dir === '.' ? base : `${dir}/${base}`;
    if (files.has(near)) return near;
  }
  return files.names.find((n) => n === base || n.endsWith(`/${base}`));
}

const bundledCache = new Map<string, string>();

/** Text of a bundled SOL001 file (`bosun:sol001/<version>/<name>`). */
export function readBundled(path: string): string {
  let text = bundledCache.get(path);
  if (text === undefined) {
    const rel = path.slice(BUNDLED_PREFIX.length);
    text = readFileSync(new URL(`./sol001/${rel}`, import.meta.url), 'utf8');
    bundledCache.set(path, text);
  }
  return text;
}
