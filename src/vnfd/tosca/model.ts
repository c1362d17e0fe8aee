/**
 * What the TOSCA loader produces (contract between src/vnfd/tosca/ and src/vnfd/model/):
 * every service template of the package with types resolved through inheritance, property
 * values checked against their definitions and constraints, defaults applied, and intrinsic
 * functions evaluated where they can be. Source locations are kept for diagnostics.
 */
import type { Diagnostic, Location } from '../diagnostics.ts';

/** A value with where it was written. */
export interface Located<T> {
  value: T;
  loc: Location;
}

export interface PropertyDefinition {
  type: string;
  required: boolean;
  default?: unknown;
  /** For list/map types. */
  entrySchema?: { type: string; constraints?: unknown[] };
  constraints?: unknown[];
  description?: string;
}

/** A type of any kind (node, data, capability, relationship, artifact, interface, group, policy). */
export interface ToscaType {
  kind: 'node' | 'data' | 'capability' | 'relationship' | 'artifact' | 'interface' | 'group' | 'policy';
  name: string;
  derivedFrom?: string;
  /** Properties including inherited ones (a derived definition overrides its parent's). */
  properties: Record<string, PropertyDefinition>;
  /** Raw definition (requirements, capabilities, interfaces, artifacts, targets…), merged with the parents'. */
  definition: Record<string, unknown>;
  loc: Location;
}

export interface TypeRegistry {
  get(name: string): ToscaType | undefined;
  /** True when `type` is `ancestor` or derives from it (through any number of levels). */
  isA(type: string, ancestor: string): boolean;
  /** `type` and its ancestors, nearest first. */
  chain(type: string): string[];
}

export interface RequirementAssignment {
  name: string;
  /** Target node template name (short or extended notation). */
  node?: string;
  capability?: string;
  relationship?: string;
  loc: Location;
}

export interface ArtifactDefinition {
  name: string;
  type: string;
  /** Path as written (relative to the template file's folder, per TOSCA). */
  file: string;
  /** The file resolved to a package path ('/'-separated from the package root). */
  path: string;
  /**
   * The file is an absolute path outside the package (`path` is then `file` as written): a file
   * on the VNFM host, as Tacker's built-in management drivers are referenced.
   */
  hostPath?: true;
  properties: Record<string, unknown>;
  loc: Location;
}

export interface OperationDefinition {
  /** Primary implementation artifact (name of an artifact of the node, or a file path). */
  implementation?: string;
  dependencies?: string[];
  inputs?: Record<string, unknown>;
  loc: Location;
}

export interface NodeTemplate {
  name: string;
  type: string;
  /** Property values after defaults and intrinsic functions (get_input resolved). */
  properties: Record<string, unknown>;
  /** Where each top-level property value was written (absent for defaults). */
  propertyLocs: Record<string, Location>;
  attributes: Record<string, unknown>;
  requirements: RequirementAssignment[];
  capabilities: Record<string, { properties: Record<string, unknown> }>;
  artifacts: Record<string, ArtifactDefinition>;
  /** interface name → operation name → definition. */
  interfaces: Record<string, Record<string, OperationDefinition>>;
  loc: Location;
}

export interface GroupTemplate {
  name: string;
  type: string;
  members: string[];
  properties: Record<string, unknown>;
  loc: Location;
}

export interface PolicyTemplate {
  name: string;
  type: string;
  properties: Record<string, unknown>;
  /** Node template or group names. */
  targets: string[];
  loc: Location;
}

export interface SubstitutionMappings {
  nodeType: string;
  /** Property values the substituted node must have (e.g. flavour_id). */
  properties: Record<string, unknown>;
  requirements: Record<string, string[]>;
  capabilities: Record<string, string[]>;
  loc: Location;
}

export interface TopologyTemplate {
  inputs: Record<string, { type: string; default?: unknown; description?: string }>;
  nodeTemplates: Record<string, NodeTemplate>;
  groups: GroupTemplate[];
  policies: PolicyTemplate[];
  substitutionMappings?: SubstitutionMappings;
}

export interface ServiceTemplate {
  /** Package path of the file. */
  file: string;
  toscaDefinitionsVersion: string;
  metadata: Record<string, unknown>;
  description?: string;
  /** Package paths of the files it imports (URL imports resolved to the file used). */
  imports: string[];
  topology?: TopologyTemplate;
}

export interface ToscaLoadResult {
  /** The entry definitions file. */
  entry: ServiceTemplate;
  /** Every service template reached from the entry through imports, entry first. */
  templates: ServiceTemplate[];
  /** All types visible from the entry (its imports, transitively, plus TOSCA normative types). */
  types: TypeRegistry;
  /** Problems found; loading goes on after errors to report them all. */
  diagnostics: Diagnostic[];
}
