/**
 * What the sections of a topology share: the template context, the locations to report at, and
 * (once inputs and node templates are known) the node template names and the function scope.
 */
import type { PackageFiles } from '../../csar/package-files.ts';
import type { Location } from '../../diagnostics.ts';
import type { ValueContext } from '../data-types.ts';
import type { FunctionScope } from '../functions.ts';
import type { ToscaType } from '../model.ts';
import { isMap } from '../type-registry.ts';
import { keyLoc, locOf, valueLoc } from '../yaml-source.ts';

export interface TemplateContext extends ValueContext {
  files: PackageFiles;
  /** Package path of the file holding the topology. */
  file: string;
  /** Values assigned to inputs (by name), taking precedence over defaults. */
  inputValues?: Record<string, unknown>;
}

export interface TopologyContext extends TemplateContext {
  /** Where the topology was written: the location of what has none of its own. */
  loc: Location;
  /** Where `container[key]`'s value was written, else `fallback` (default: the topology). */
  at(container: unknown, key: string | number, fallback?: Location): Location;
  /** Where `container[key]`'s key was written, else `fallback` (default: the topology). */
  keyAt(container: unknown, key: string | number, fallback?: Location): Location;
}

export interface SectionContext extends TopologyContext {
  /** Every name under node_templates, broken templates included (targets may name them). */
  nodeNames: ReadonlySet<string>;
  /** The function scope of a value of template `self` (none: of a group, policy or mapping). */
  scopeFor(self?: string): FunctionScope;
}

export function topologyContext(raw: Record<string, unknown>, ctx: TemplateContext): TopologyContext {
  const fileLoc: Location = locOf(raw) ?? { file: ctx.file };
  return {
    ...ctx,
    loc: fileLoc,
    at: (container, key, fallback = fileLoc) => valueLoc(container, key) ?? fallback,
    keyAt: (container, key, fallback = fileLoc) => keyLoc(container, key) ?? fallback,
  };
}

/** A map-valued section of the topology (`inputs`, `node_templates`, `groups`); absent is empty. */
export function section(
  raw: Record<string, unknown>,
  key: string,
  ctx: TemplateContext,
): Record<string, unknown> {
  const v = raw[key];
  if (v === undefined || v === null) return {};
  if (!isMap(v)) {
    ctx.diags.error('TOSCA_SYNTAX', `${key} must be a map`, valueLoc(raw, key) ?? { file: ctx.file });
    return {};
  }
  return v;
}

/** A group or policy of the topology: a map with a type, and that type's definition. */
export interface TypedEntry {
  entry: Record<string, unknown> & { type: string };
  /** Undefined when the type is not defined (reported; the entry is still built). */
  type: ToscaType | undefined;
}

/**
 * Reads a `groups` or `policies` entry: TOSCA_SYNTAX (and nothing built) when it is not a map
 * with a type, TOSCA_UNKNOWN_TYPE when its type is not defined.
 */
export function typedEntry(
  kind: 'group' | 'policy',
  name: string,
  raw: unknown,
  loc: Location,
  ctx: SectionContext,
): TypedEntry | undefined {
  if (!isMap(raw) || typeof raw.type !== 'string') {
    ctx.diags.error('TOSCA_SYNTAX', `${kind} ${name} must be a map with a type`, loc);
    return undefined;
  }
  const type = ctx.registry.lookup(raw.type, kind);
  if (!type) {
    ctx.diags.error(
      'TOSCA_UNKNOWN_TYPE',
      `${kind} ${name} has type ${raw.type}, which is not defined`,
      ctx.at(raw, 'type', loc),
    );
  }
  return { entry: raw as TypedEntry['entry'], type };
}
