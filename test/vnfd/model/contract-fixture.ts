/**
 * Builds ToscaLoadResult / CsarInfo values directly (the contract the model reads), so the
 * model's unit tests do not depend on the YAML loader's behaviour. Only the fields the model
 * reads are filled; everything else gets an empty default.
 */
import { setOwn } from '../../../src/own-properties.ts';
import type { CsarInfo } from '../../../src/vnfd/csar/csar-info.ts';
import type {
  ArtifactDefinition,
  GroupTemplate,
  NodeTemplate,
  OperationDefinition,
  PolicyTemplate,
  ServiceTemplate,
  SubstitutionMappings,
  ToscaLoadResult,
  ToscaType,
  TypeRegistry,
} from '../../../src/vnfd/tosca/model.ts';

/** SOL001 type hierarchy (child → parent) plus a vendor VNF type and derived VDU/CP types. */
const PARENTS: Record<string, string> = {
  'tosca.nodes.nfv.VNF': 'tosca.nodes.Root',
  'company.provider.VNF': 'tosca.nodes.nfv.VNF',
  'tosca.nodes.nfv.Vdu.Compute': 'tosca.nodes.Root',
  'company.Vdu.Compute': 'tosca.nodes.nfv.Vdu.Compute',
  'tosca.nodes.nfv.Vdu.VirtualBlockStorage': 'tosca.nodes.Root',
  'tosca.nodes.nfv.Vdu.VirtualObjectStorage': 'tosca.nodes.Root',
  'tosca.nodes.nfv.Vdu.VirtualFileStorage': 'tosca.nodes.Root',
  'tosca.nodes.nfv.Cp': 'tosca.nodes.Root',
  'tosca.nodes.nfv.VduCp': 'tosca.nodes.nfv.Cp',
  'company.VduCp': 'tosca.nodes.nfv.VduCp',
  'tosca.nodes.nfv.VnfExtCp': 'tosca.nodes.nfv.Cp',
  'tosca.nodes.nfv.VnfVirtualLink': 'tosca.nodes.Root',
  'tosca.artifacts.nfv.SwImage': 'tosca.artifacts.Deployment.Image',
  'tosca.artifacts.Implementation.Python': 'tosca.artifacts.Implementation',
  'tosca.artifacts.Implementation.Bash': 'tosca.artifacts.Implementation',
  'tosca.groups.nfv.PlacementGroup': 'tosca.groups.Root',
  'tosca.policies.nfv.InstantiationLevels': 'tosca.policies.Root',
  'tosca.policies.nfv.VduInstantiationLevels': 'tosca.policies.Root',
  'tosca.policies.nfv.VirtualLinkInstantiationLevels': 'tosca.policies.Root',
  'tosca.policies.nfv.ScalingAspects': 'tosca.policies.Root',
  'tosca.policies.nfv.VduScalingAspectDeltas': 'tosca.policies.Root',
  'tosca.policies.nfv.VduInitialDelta': 'tosca.policies.Root',
  'tosca.policies.nfv.AffinityRule': 'tosca.policies.Placement',
  'tosca.policies.nfv.AntiAffinityRule': 'tosca.policies.Placement',
  'company.AntiAffinityRule': 'tosca.policies.nfv.AntiAffinityRule',
};

/** company.provider.VNF pins the identity with defaults, as Tacker's sample types files do. */
const VNF_DEFAULTS: Record<string, unknown> = { descriptor_id: 'default-id', flavour_id: 'simple' };

export const registry: TypeRegistry = {
  get(name: string): ToscaType | undefined {
    if (!(name in PARENTS)) return undefined;
    const properties: ToscaType['properties'] = {};
    if (name === 'company.provider.VNF') {
      for (const [k, v] of Object.entries(VNF_DEFAULTS))
        properties[k] = { type: 'string', required: true, default: v };
    }
    return {
      kind: 'node',
      name,
      derivedFrom: PARENTS[name],
      properties,
      definition: {},
      loc: { file: 'types.yaml' },
    };
  },
  chain(type: string): string[] {
    const out: string[] = [];
    for (let t: string | undefined = type; t !== undefined; t = PARENTS[t]) out.push(t);
    return out;
  },
  isA(type: string, ancestor: string): boolean {
    return this.chain(type).includes(ancestor);
  },
};

export interface NodeSpec {
  type: string;
  properties?: Record<string, unknown>;
  /** Properties also recorded as written (propertyLocs); defaults to all of `properties`. */
  written?: string[];
  requirements?: [string, string][];
  capabilities?: Record<string, Record<string, unknown>>;
  artifacts?: Record<string, { type?: string; file: string; path?: string }>;
  interfaces?: Record<string, Record<string, { implementation?: string }>>;
}

export function node(file: string, name: string, spec: NodeSpec, line = 1): NodeTemplate {
  const properties = spec.properties ?? {};
  const written = spec.written ?? Object.keys(properties);
  const artifacts: Record<string, ArtifactDefinition> = {};
  for (const [a, def] of Object.entries(spec.artifacts ?? {})) {
    artifacts[a] = {
      name: a,
      type: def.type ?? '',
      file: def.file,
      path: def.path ?? def.file.replace(/^\.\.\//, ''),
      properties: {},
      loc: { file, line: line + 1 },
    };
  }
  const interfaces: Record<string, Record<string, OperationDefinition>> = {};
  for (const [i, ops] of Object.entries(spec.interfaces ?? {})) {
    interfaces[i] = {};
    for (const [op, def] of Object.entries(ops))
      interfaces[i][op] = { ...def, loc: { file, line: line + 2 } };
  }
  const capabilities: NodeTemplate['capabilities'] = {};
  for (const [c, props] of Object.entries(spec.capabilities ?? {})) capabilities[c] = { properties: props };
  return {
    name,
    type: spec.type,
    properties,
    propertyLocs: Object.fromEntries(written.map((p) => [p, { file, line: line + 3 }])),
    attributes: {},
    requirements: (spec.requirements ?? []).map(([n, target]) => ({
      name: n,
      node: target,
      loc: { file, line },
    })),
    capabilities,
    artifacts,
    interfaces,
    loc: { file, line },
  };
}

export interface TemplateSpec {
  file: string;
  nodes?: Record<string, NodeSpec>;
  policies?: { name: string; type: string; properties?: Record<string, unknown>; targets?: string[] }[];
  groups?: { name: string; type: string; members: string[] }[];
  substitution?: {
    nodeType: string;
    properties?: Record<string, unknown>;
    requirements?: Record<string, string[]>;
  };
}

export function template(spec: TemplateSpec): ServiceTemplate {
  let line = 10;
  const nodeTemplates: Record<string, NodeTemplate> = {};
  for (const [name, n] of Object.entries(spec.nodes ?? {})) {
    // Own keys whatever the name, as the loader builds them (__proto__ included).
    setOwn(nodeTemplates, name, node(spec.file, name, n, line));
    line += 10;
  }
  const policies: PolicyTemplate[] = (spec.policies ?? []).map((p, i) => ({
    name: p.name,
    type: p.type,
    properties: p.properties ?? {},
    targets: p.targets ?? [],
    loc: { file: spec.file, line: 500 + i },
  }));
  const groups: GroupTemplate[] = (spec.groups ?? []).map((g, i) => ({
    ...g,
    properties: {},
    loc: { file: spec.file, line: 400 + i },
  }));
  const substitutionMappings: SubstitutionMappings | undefined = spec.substitution && {
    nodeType: spec.substitution.nodeType,
    properties: spec.substitution.properties ?? {},
    requirements: spec.substitution.requirements ?? {},
    capabilities: {},
    loc: { file: spec.file, line: 5 },
  };
  return {
    file: spec.file,
    toscaDefinitionsVersion: 'tosca_simple_yaml_1_2',
    metadata: {},
    imports: [],
    topology: { inputs: {}, nodeTemplates, groups, policies, substitutionMappings },
  };
}

export function load(...templates: ServiceTemplate[]): ToscaLoadResult {
  return { entry: templates[0], templates, types: registry, diagnostics: [] };
}

export function csar(artifacts: Partial<CsarInfo['artifacts'][number]>[] = []): CsarInfo {
  return {
    layout: 'tosca-metadata',
    entryDefinitions: 'Definitions/top.yaml',
    artifacts: artifacts.map((a) => ({ path: '', declaredIn: 'TOSCA.meta', image: false, ...a })),
    signature: { policy: 'verify-if-present', manifestSigned: false },
    diagnostics: [],
  };
}

/** The identity every valid entry VNF node writes. */
export const IDENTITY = {
  descriptor_id: 'b1bb0ce7-ebca-4fa7-95ed-4840d7000000',
  descriptor_version: '1.0',
  provider: 'Company',
  product_name: 'Sample VNF',
  software_version: '1.0',
  vnfm_info: ['Tacker'],
};
