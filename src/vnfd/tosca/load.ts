/**
 * Entry point of the TOSCA loader: reads the entry service template and everything it imports
 * (each file once, cycles reported), registers the normative, SOL001 and package types, then
 * builds the topology of every file that has one (the VNF top template and each flavour file).
 * Never throws on bad input and never touches the network; problems are diagnostics.
 */
import type { PackageFiles } from '../csar/package-files.ts';
import { Diagnostics, type Location } from '../diagnostics.ts';
import { BUNDLED_PREFIX, readBundled, resolveImport } from './imports.ts';
import type { ServiceTemplate, ToscaLoadResult } from './model.ts';
import { NORMATIVE_FILE, NORMATIVE_TYPES_YAML } from './normative-types.ts';
import { buildTopology, type TemplateContext } from './templates.ts';
import { isMap, Registry } from './type-registry.ts';
import { keyLoc, locOf, parseYaml, valueLoc } from './yaml-source.ts';

export interface LoadToscaOptions {
  /** Deepest YAML nesting accepted in a file (default 64). */
  maxDepth?: number;
  /** Longest chain of nested imports (default 32). */
  maxImportDepth?: number;
  /** Values for topology inputs (by name), used by get_input before the inputs' defaults. */
  inputs?: Record<string, unknown>;
}

export const TOSCA_VERSIONS = [
  'tosca_simple_yaml_1_0',
  'tosca_simple_yaml_1_1',
  'tosca_simple_yaml_1_2',
  'tosca_simple_yaml_1_3',
];

const TOP_LEVEL_KEYS = new Set([
  'tosca_definitions_version',
  'namespace',
  'metadata',
  'description',
  'dsl_definitions',
  'repositories',
  'imports',
  'artifact_types',
  'data_types',
  'capability_types',
  'interface_types',
  'relationship_types',
  'node_types',
  'group_types',
  'policy_types',
  'topology_template',
  'template_name',
  'template_author',
  'template_version',
]);

interface LoadedFile {
  template: ServiceTemplate;
  doc: Record<string, unknown>;
}

/** What loading builds up while it follows the imports. */
interface Loading {
  files: PackageFiles;
  diags: Diagnostics;
  maxDepth: number;
  maxImportDepth: number;
  /** Every path visited; null while (or when) it has no template. */
  loaded: Map<string, LoadedFile | null>;
  /** The templates in the order they were read, the entry first. */
  order: LoadedFile[];
}

export async function loadTosca(
  files: PackageFiles,
  entry: string,
  options: LoadToscaOptions = {},
): Promise<ToscaLoadResult> {
  const loading: Loading = {
    files,
    diags: new Diagnostics(),
    maxDepth: options.maxDepth ?? 64,
    maxImportDepth: options.maxImportDepth ?? 32,
    loaded: new Map(),
    order: [],
  };
  const { diags, order } = loading;
  await visit(loading, entry, []);
  const registry = registerTypes(order, diags);
  for (const f of order) {
    const topology = buildTopologyOf(f, { registry, diags, files, inputValues: options.inputs });
    if (topology) f.template.topology = topology;
  }
  const templates = order.map((f) => f.template);
  const entryTemplate = loading.loaded.get(entry)?.template ?? {
    file: entry,
    toscaDefinitionsVersion: '',
    metadata: {},
    imports: [],
  };
  return { entry: entryTemplate, templates, types: registry, diagnostics: diags.list };
}

/** Reads the file at `path` (imported at `importedAt`, else the entry), then what it imports. */
async function visit(loading: Loading, path: string, stack: string[], importedAt?: Location): Promise<void> {
  const { diags, loaded } = loading;
  if (stack.includes(path)) {
    diags.error(
      'TOSCA_IMPORT_CYCLE',
      `import cycle: ${[...stack.slice(stack.indexOf(path)), path].join(' → ')}`,
      importedAt ?? { file: path },
    );
    return;
  }
  if (loaded.has(path)) return;
  if (stack.length >= loading.maxImportDepth) {
    diags.error(
      'TOSCA_IMPORT_TOO_DEEP',
      `imports are nested more than ${loading.maxImportDepth} levels deep`,
      importedAt,
    );
    return;
  }
  loaded.set(path, null);
  const doc = await readDocument(loading, path, importedAt);
  if (doc === undefined) return;
  const file: LoadedFile = { template: serviceTemplate(doc, path, diags), doc };
  loaded.set(path, file);
  loading.order.push(file);
  for (const [spec, at] of importSpecs(doc, path, diags)) {
    const target = resolveImport(spec, path, loading.files);
    if (!target.ok) {
      diags.error(target.code, target.message, at);
      continue;
    }
    if (!file.template.imports.includes(target.path)) file.template.imports.push(target.path);
    await visit(loading, target.path, [...stack, path], at);
  }
}

/** The YAML map at `path`; undefined (reported) when it cannot be read, parsed or is no map. */
async function readDocument(
  loading: Loading,
  path: string,
  importedAt?: Location,
): Promise<Record<string, unknown> | undefined> {
  const { diags } = loading;
  let text: string;
  try {
    text = path.startsWith(BUNDLED_PREFIX) ? readBundled(path) : await loading.files.readText(path);
  } catch (err) {
    diags.error(
      importedAt ? 'TOSCA_IMPORT_UNREADABLE' : 'TOSCA_ENTRY_UNREADABLE',
      `cannot read ${path}: ${(err as Error).message}`,
      importedAt ?? { file: path },
    );
    return undefined;
  }
  const parsed = parseCached(text, path, loading.maxDepth);
  // Bosun's bundled SOL001 copies are kept verbatim; their YAML quirks are not the vendor's to fix.
  const bundled = path.startsWith(BUNDLED_PREFIX);
  const own = bundled ? parsed.diagnostics.filter((d) => d.severity === 'error') : parsed.diagnostics;
  diags.add(own.map((d) => ({ ...d })));
  if (parsed.value === undefined) return undefined;
  const doc = parsed.value;
  if (!isMap(doc)) {
    diags.error(
      'TOSCA_SYNTAX',
      `${path} must be a YAML map (a TOSCA service template)`,
      locOf(doc) ?? { file: path, line: 1, column: 1 },
    );
    return undefined;
  }
  return doc;
}

/** The service template of `doc`: its version and top-level keys checked, imports still to add. */
function serviceTemplate(doc: Record<string, unknown>, path: string, diags: Diagnostics): ServiceTemplate {
  const version = doc.tosca_definitions_version;
  if (version === undefined) {
    diags.error('TOSCA_VERSION', `${path} has no tosca_definitions_version`, {
      file: path,
      line: 1,
      column: 1,
    });
  } else if (typeof version !== 'string' || !TOSCA_VERSIONS.includes(version)) {
    diags.error(
      'TOSCA_VERSION',
      `${path}: tosca_definitions_version ${String(version)} is not supported (use one of ${TOSCA_VERSIONS.join(', ')})`,
      valueLoc(doc, 'tosca_definitions_version') ?? { file: path },
    );
  }
  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL_KEYS.has(key)) {
      diags.warning(
        'TOSCA_UNKNOWN_KEY',
        `${path}: unknown top-level key ${key}`,
        keyLoc(doc, key) ?? { file: path },
      );
    }
  }
  const template: ServiceTemplate = {
    file: path,
    toscaDefinitionsVersion: typeof version === 'string' ? version : '',
    metadata: isMap(doc.metadata) ? doc.metadata : {},
    imports: [],
  };
  if (typeof doc.description === 'string') template.description = doc.description;
  return template;
}

/** The normative types, then every file's, resolved together. */
function registerTypes(order: LoadedFile[], diags: Diagnostics): Registry {
  const registry = new Registry();
  const normative = parseYaml(NORMATIVE_TYPES_YAML, NORMATIVE_FILE);
  registry.addFile(normative.value as Record<string, unknown>, NORMATIVE_FILE, diags);
  for (const f of order) registry.addFile(f.doc, f.template.file, diags);
  registry.resolveAll(diags);
  return registry;
}

/** The topology of a file that has one. */
function buildTopologyOf(
  f: LoadedFile,
  ctx: Omit<TemplateContext, 'file'>,
): ServiceTemplate['topology'] | undefined {
  const topo = f.doc.topology_template;
  if (topo === undefined || topo === null) return undefined;
  if (!isMap(topo)) {
    ctx.diags.error(
      'TOSCA_SYNTAX',
      'topology_template must be a map',
      valueLoc(f.doc, 'topology_template') ?? { file: f.template.file },
    );
    return undefined;
  }
  return buildTopology(topo, { ...ctx, file: f.template.file });
}

/**
 * The SOL001 type files are the bulk of every VNFD and identical across packages: their parse is
 * reused (keyed by path and content; the loader never mutates parsed documents).
 */
const sol001Cache = new Map<string, ReturnType<typeof parseYaml>>();
const SOL001_NAME = /(^|\/)etsi_nfv_sol001_[a-z]+_types\.yaml$/;

function parseCached(text: string, path: string, maxDepth: number): ReturnType<typeof parseYaml> {
  if (!SOL001_NAME.test(path)) return parseYaml(text, path, { maxDepth });
  const key = `${maxDepth}\u0000${path}\u0000${text}`;
  let parsed = sol001Cache.get(key);
  if (!parsed) {
    parsed = parseYaml(text, path, { maxDepth });
    if (sol001Cache.size >= 32) sol001Cache.delete(sol001Cache.keys().next().value as string);
    sol001Cache.set(key, parsed);
  }
  return parsed;
}

/** The file names of an `imports` section, with where each was written. */
function importSpecs(doc: Record<string, unknown>, path: string, diags: Diagnostics): [string, Location][] {
  const list = doc.imports;
  if (list === undefined || list === null) return [];
  const fallback = valueLoc(doc, 'imports') ?? { file: path };
  if (!Array.isArray(list)) {
    diags.error('TOSCA_SYNTAX', 'imports must be a list', fallback);
    return [];
  }
  const out: [string, Location][] = [];
  list.forEach((item, i) => {
    const at = valueLoc(list, i) ?? fallback;
    let spec: unknown = item;
    // `{file: x}`, or TOSCA 1.0 `name: x` / `name: {file: x}`.
    if (isMap(spec) && !('file' in spec) && Object.keys(spec).length === 1) spec = Object.values(spec)[0];
    if (isMap(spec)) {
      if (spec.repository !== undefined) {
        diags.error(
          'TOSCA_IMPORT_URL',
          `import ${String(spec.file)} from repository ${String(spec.repository)}: repositories are not supported (Bosun never downloads definitions)`,
          at,
        );
        return;
      }
      spec = spec.file;
    }
    if (typeof spec !== 'string' || spec === '') {
      diags.error('TOSCA_SYNTAX', `import ${i + 1} must be a file name or {file: name}`, at);
      return;
    }
    out.push([spec, at]);
  });
  return out;
}
