/**
 * A node template's artifacts: short (`name: path`) or full notation, the type and properties
 * checked, the file resolved to a package path (relative to the template's folder, or tolerated
 * at the package root or on the VNFM host).
 */

import { posix } from 'node:path';
import { setOwn } from '../../../own-properties.ts';
import type { PackageFiles } from '../../csar/package-files.ts';
import type { Location } from '../../diagnostics.ts';
import { checkProperties } from '../data-types.ts';
import { evaluate, type FunctionScope } from '../functions.ts';
import type { ArtifactDefinition } from '../model.ts';
import { isMap } from '../type-registry.ts';
import type { SectionContext } from './context.ts';

const shortNotation = new WeakSet<ArtifactDefinition>();

/**
 * True for an artifact written in short notation (`name: path`). Its `type` is then
 * `tosca.artifacts.File`; Tacker treats such an artifact on a VDU or storage node as a SwImage.
 */
export function isShortNotationArtifact(a: ArtifactDefinition): boolean {
  return shortNotation.has(a);
}

export function buildArtifacts(
  name: string,
  rawNode: Record<string, unknown>,
  scope: FunctionScope,
  loc: Location,
  ctx: SectionContext,
): Record<string, ArtifactDefinition> {
  const out: Record<string, ArtifactDefinition> = {};
  const arts = rawNode.artifacts;
  if (arts === undefined || arts === null) return out;
  if (!isMap(arts)) {
    ctx.diags.error(
      'TOSCA_SYNTAX',
      `artifacts of node template ${name} must be a map`,
      ctx.at(rawNode, 'artifacts', loc),
    );
    return out;
  }
  for (const a of Object.keys(arts)) {
    const def = buildArtifact(name, a, arts, scope, ctx.keyAt(arts, a, loc), ctx);
    if (def) setOwn(out, a, def);
  }
  return out;
}

/** Artifact `a` of `arts`, written at `aloc`; undefined when it has no file. */
function buildArtifact(
  name: string,
  a: string,
  arts: Record<string, unknown>,
  scope: FunctionScope,
  aloc: Location,
  ctx: SectionContext,
): ArtifactDefinition | undefined {
  const value = arts[a];
  const short = typeof value === 'string';
  let file: unknown;
  let typed = { typeName: 'tosca.artifacts.File', props: {} as Record<string, unknown> };
  if (short) file = value;
  else if (isMap(value)) {
    file = value.file;
    typed = artifactType(name, a, value, scope, aloc, ctx);
  }
  if (typeof file !== 'string' || file === '') {
    ctx.diags.error('TOSCA_SYNTAX', `artifact ${a} of node template ${name} needs a file`, aloc);
    return undefined;
  }
  const floc = short ? ctx.at(arts, a, aloc) : ctx.at(value, 'file', aloc);
  const path = artifactPath(file, `artifact ${a} of node template ${name}`, floc, ctx);
  const def: ArtifactDefinition = {
    name: a,
    type: typed.typeName,
    file,
    path: path ?? file,
    ...(path === file && isHostPath(file, ctx.files) ? { hostPath: true } : {}),
    properties: typed.props,
    loc: aloc,
  };
  if (short) shortNotation.add(def);
  return def;
}

/** The type of a full-notation artifact (File when missing or unknown) and its checked properties. */
function artifactType(
  name: string,
  a: string,
  value: Record<string, unknown>,
  scope: FunctionScope,
  aloc: Location,
  ctx: SectionContext,
): { typeName: string; props: Record<string, unknown> } {
  let typeName = 'tosca.artifacts.File';
  if (typeof value.type === 'string') typeName = value.type;
  else ctx.diags.error('TOSCA_SYNTAX', `artifact ${a} of node template ${name} has no type`, aloc);
  const type = ctx.registry.lookup(typeName, 'artifact');
  if (!type) {
    ctx.diags.error(
      'TOSCA_UNKNOWN_TYPE',
      `artifact ${a} of node template ${name} has type ${typeName}, which is not defined`,
      ctx.at(value, 'type', aloc),
    );
  } else typeName = type.name;
  const given = isMap(value.properties) ? value.properties : {};
  const evaluated = evaluate(given, scope, ctx.at(value, 'properties', aloc)) as Record<string, unknown>;
  const props = type
    ? checkProperties(evaluated, type.properties, `artifact ${a} of node template ${name}`, aloc, ctx)
    : evaluated;
  return { typeName, props };
}

/** Resolves an artifact file relative to the template's folder, checking it is in the package. */
function artifactPath(file: string, what: string, loc: Location, ctx: SectionContext): string | undefined {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(file)) return file;
  const path = posix.normalize(
    file.startsWith('/') ? file.slice(1) : posix.join(posix.dirname(ctx.file), file),
  );
  if (path === '..' || path.startsWith('../')) {
    ctx.diags.error('TOSCA_ARTIFACT_ESCAPES', `${what}: ${file} points outside the package`, loc);
    return undefined;
  }
  if (!ctx.files.has(path)) {
    const fromRoot = posix.normalize(file);
    if (!fromRoot.startsWith('../') && ctx.files.has(fromRoot)) {
      // Some VNFDs (and Tacker) take the path from the package root instead of the file's folder.
      ctx.diags.warning(
        'TOSCA_ARTIFACT_PATH',
        `${what}: ${file} is not in ${posix.dirname(ctx.file)}/ but at the package root (${fromRoot}); TOSCA resolves artifact files relative to the template's folder`,
        loc,
      );
      return fromRoot;
    }
    if (isHostPath(file, ctx.files)) {
      ctx.diags.tolerated(
        'TOSCA_ARTIFACT_HOST_PATH',
        `${what}: ${file} is an absolute path on the VNFM host, not a file of the package; Bosun runs it only when its file name names one of Bosun's built-in management drivers, otherwise an operation that reaches it fails — to run your own, ship the file in the package and give its path relative to the template`,
        loc,
      );
      return file;
    }
    ctx.diags.error('TOSCA_ARTIFACT_MISSING', `${what}: ${file} (${path}) is not in the package`, loc);
  }
  return path;
}

/**
 * An absolute artifact path that is not the package's: its first folder is none of the package's
 * (`/opt/stack/…`, not `/Scripts/…`). Tacker looks such a path up on its own host.
 */
function isHostPath(file: string, files: PackageFiles): boolean {
  if (!file.startsWith('/')) return false;
  const top = posix.normalize(file).split('/')[1];
  return top !== undefined && top !== '' && !files.names.some((n) => n.startsWith(`${top}/`));
}
