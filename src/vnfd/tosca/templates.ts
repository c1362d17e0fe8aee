/**
 * A `topology_template` → TopologyTemplate: inputs, node templates (properties checked against
 * their type with defaults and functions evaluated, requirements with occurrences, capabilities,
 * artifacts resolved to package paths, interface operations), groups, policies and
 * substitution_mappings. Every problem is reported and only the broken piece is skipped.
 */
import { posix } from 'node:path';
import type { PackageFiles } from '../csar/package-files.ts';
import type { Location } from '../diagnostics.ts';
import { article } from './article.ts';
import { checkProperties, checkValue, defineEntry, type ValueContext } from './data-types.ts';
import { evaluate, type FunctionScope } from './functions.ts';
import type {
  ArtifactDefinition,
  GroupTemplate,
  NodeTemplate,
  OperationDefinition,
  PolicyTemplate,
  PropertyDefinition,
  RequirementAssignment,
  SubstitutionMappings,
  TopologyTemplate,
} from './model.ts';
import { isMap, propertyDefinition } from './type-registry.ts';
import { copyLoc, keyLoc, locOf, valueLoc } from './yaml-source.ts';

export interface TemplateContext extends ValueContext {
  files: PackageFiles;
  /** Package path of the file holding the topology. */
  file: string;
  /** Values assigned to inputs (by name), taking precedence over defaults. */
  inputValues?: Record<string, unknown>;
}

const shortNotation = new WeakSet<ArtifactDefinition>();

/**
 * True for an artifact written in short notation (`name: path`). Its `type` is then
 * `tosca.artifacts.File`; Tacker treats such an artifact on a VDU or storage node as a SwImage.
 */
export function isShortNotationArtifact(a: ArtifactDefinition): boolean {
  return shortNotation.has(a);
}

const UNBOUNDED = Number.POSITIVE_INFINITY;

export function buildTopology(raw: Record<string, unknown>, ctx: TemplateContext): TopologyTemplate {
  const fileLoc: Location = locOf(raw) ?? { file: ctx.file };
  const diags = ctx.diags;
  const at = (container: unknown, key: string | number, fallback: Location = fileLoc) =>
    valueLoc(container, key) ?? fallback;
  const keyAt = (container: unknown, key: string | number, fallback: Location = fileLoc) =>
    keyLoc(container, key) ?? fallback;

  // Inputs.
  const inputs: TopologyTemplate['inputs'] = {};
  const inputDefs: Record<string, PropertyDefinition> = {};
  const rawInputs = section(raw, 'inputs', ctx);
  for (const [name, def] of Object.entries(rawInputs)) {
    const d = isMap(def) ? def : {};
    const pd = propertyDefinition(d);
    inputDefs[name] = pd;
    const entry: TopologyTemplate['inputs'][string] = { type: pd.type };
    if (typeof d.description === 'string') entry.description = d.description;
    if ('default' in d) {
      entry.default = checkValue(
        d.default,
        pd,
        `default of input ${name}`,
        at(d, 'default', keyAt(rawInputs, name)),
        ctx,
      );
    }
    inputs[name] = entry;
  }
  for (const [name, v] of Object.entries(ctx.inputValues ?? {})) {
    if (inputDefs[name]) checkValue(v, inputDefs[name], `input ${name}`, fileLoc, ctx);
  }

  // Node templates: first their raw definitions, so functions can refer to any of them.
  const rawNodes = section(raw, 'node_templates', ctx);
  const nodeNames = new Set(Object.keys(rawNodes));
  const nodeRaw = (name: string) =>
    isMap(rawNodes[name]) ? (rawNodes[name] as Record<string, unknown>) : {};
  const nodeType = (name: string) => {
    const t = nodeRaw(name).type;
    return typeof t === 'string' ? ctx.registry.lookup(t, 'node') : undefined;
  };
  const memo = new Map<string, unknown>();
  const busy = new Set<string>();
  const scopeFor = (self?: string): FunctionScope => ({
    self,
    input(name) {
      if (!Object.hasOwn(inputs, name)) return { declared: false, hasValue: false };
      if (ctx.inputValues && Object.hasOwn(ctx.inputValues, name)) {
        return { declared: true, hasValue: true, value: ctx.inputValues[name] };
      }
      const i = inputs[name];
      return 'default' in i
        ? { declared: true, hasValue: true, value: i.default }
        : { declared: true, hasValue: false };
    },
    property(node, name, capability) {
      if (!nodeNames.has(node)) return { node: false, found: false };
      const r = nodeRaw(node);
      let holder: unknown = r.properties;
      let defs: Record<string, PropertyDefinition> | undefined = nodeType(node)?.properties;
      if (capability !== undefined) {
        const caps = r.capabilities;
        holder =
          isMap(caps) && isMap(caps[capability])
            ? (caps[capability] as Record<string, unknown>).properties
            : undefined;
        defs = undefined;
      }
      const key = `${node}\u0000${capability ?? ''}\u0000${name}`;
      if (memo.has(key)) return { node: true, found: true, value: memo.get(key) };
      let value: unknown;
      if (isMap(holder) && Object.hasOwn(holder, name)) value = holder[name];
      else if (defs?.[name] && defs[name].default !== undefined) value = defs[name].default;
      else return { node: true, found: false };
      if (busy.has(key)) {
        diags.error(
          'TOSCA_FUNCTION',
          `get_property: property ${name} of ${node} refers to itself`,
          at(holder, name),
        );
        return { node: true, found: false };
      }
      busy.add(key);
      const evaluated = evaluate(value, scopeFor(node), at(holder, name));
      busy.delete(key);
      memo.set(key, evaluated);
      return { node: true, found: true, value: evaluated };
    },
    report: (code, message, loc) => diags.error(code, message, loc),
  });

  const substitution = isMap(raw.substitution_mappings) ? raw.substitution_mappings : undefined;
  const mappedRequirements = new Set<string>();
  if (substitution && isMap(substitution.requirements)) {
    for (const target of Object.values(substitution.requirements)) {
      if (Array.isArray(target) && target.length >= 2)
        mappedRequirements.add(`${target[0]}\u0000${target[1]}`);
    }
  }

  const nodeTemplates: Record<string, NodeTemplate> = {};
  for (const [name, rawNode] of Object.entries(rawNodes)) {
    const loc = keyAt(rawNodes, name);
    if (!isMap(rawNode)) {
      diags.error('TOSCA_SYNTAX', `node template ${name} must be a map`, loc);
      continue;
    }
    const typeName = rawNode.type;
    if (typeof typeName !== 'string') {
      diags.error('TOSCA_SYNTAX', `node template ${name} has no type`, loc);
      continue;
    }
    const type = ctx.registry.lookup(typeName, 'node');
    if (!type) {
      diags.error(
        'TOSCA_UNKNOWN_TYPE',
        `node template ${name} has type ${typeName}, which is not defined (missing import?)`,
        at(rawNode, 'type', loc),
      );
    } else if (type.kind !== 'node') {
      diags.error(
        'TOSCA_TYPE_KIND',
        `node template ${name} has type ${typeName}, which is ${article(type.kind)} ${type.kind} type`,
        at(rawNode, 'type', loc),
      );
    }
    const owner = `node template ${name}`;
    const scope = scopeFor(name);
    const givenProps = isMap(rawNode.properties) ? rawNode.properties : {};
    if (rawNode.properties !== undefined && rawNode.properties !== null && !isMap(rawNode.properties)) {
      diags.error('TOSCA_SYNTAX', `properties of ${owner} must be a map`, at(rawNode, 'properties', loc));
    }
    const evaluatedProps: Record<string, unknown> = {};
    const propertyLocs: Record<string, Location> = {};
    for (const p of Object.keys(givenProps)) {
      defineEntry(evaluatedProps, p, scope.property(name, p).value);
      propertyLocs[p] = at(givenProps, p, loc);
    }
    copyLoc(evaluatedProps, givenProps);
    const properties =
      type?.kind === 'node'
        ? checkProperties(evaluatedProps, type.properties, owner, loc, ctx)
        : evaluatedProps;

    const attributes = isMap(rawNode.attributes)
      ? (evaluate(rawNode.attributes, scope, at(rawNode, 'attributes', loc)) as Record<string, unknown>)
      : {};

    const requirements = type?.kind === 'node' ? buildRequirements(name, rawNode, type.definition, loc) : [];
    const capabilities = buildCapabilities(name, rawNode, type?.definition, scope, loc);
    const artifacts = buildArtifacts(name, rawNode, scope, loc);
    const interfaces = buildInterfaces(name, rawNode, type?.definition, artifacts, scope, loc);
    nodeTemplates[name] = {
      name,
      type: type?.name ?? typeName,
      properties,
      propertyLocs,
      attributes,
      requirements,
      capabilities,
      artifacts,
      interfaces,
      loc,
    };
  }

  function buildRequirements(
    name: string,
    rawNode: Record<string, unknown>,
    typeDef: Record<string, unknown>,
    loc: Location,
  ): RequirementAssignment[] {
    const defs = new Map<string, Record<string, unknown>>();
    for (const entry of Array.isArray(typeDef.requirements) ? typeDef.requirements : []) {
      if (!isMap(entry)) continue;
      for (const [r, d] of Object.entries(entry)) defs.set(r, isMap(d) ? d : { capability: d });
    }
    const out: RequirementAssignment[] = [];
    const list = rawNode.requirements;
    if (list !== undefined && list !== null && !Array.isArray(list)) {
      diags.error(
        'TOSCA_SYNTAX',
        `requirements of node template ${name} must be a list`,
        at(rawNode, 'requirements', loc),
      );
    }
    for (const [i, entry] of (Array.isArray(list) ? list : []).entries()) {
      const eloc = at(list, i, loc);
      if (!isMap(entry) || Object.keys(entry).length !== 1) {
        diags.error(
          'TOSCA_SYNTAX',
          `requirement ${i + 1} of node template ${name} must be a map with one key`,
          eloc,
        );
        continue;
      }
      const [r, value] = Object.entries(entry)[0];
      if (!defs.has(r)) {
        diags.error(
          'TOSCA_UNKNOWN_REQUIREMENT',
          `node template ${name} has no requirement ${r} (its type defines: ${[...defs.keys()].join(', ') || 'none'})`,
          keyAt(entry, r, eloc),
        );
        continue;
      }
      const assignment: RequirementAssignment = { name: r, loc: keyAt(entry, r, eloc) };
      if (typeof value === 'string') assignment.node = value;
      else if (isMap(value)) {
        if (typeof value.node === 'string') assignment.node = value.node;
        if (typeof value.capability === 'string') assignment.capability = value.capability;
        const rel = value.relationship;
        if (typeof rel === 'string') assignment.relationship = rel;
        else if (isMap(rel) && typeof rel.type === 'string') assignment.relationship = rel.type;
      } else if (value !== null) {
        diags.error(
          'TOSCA_SYNTAX',
          `requirement ${r} of node template ${name} must name a node or be a map`,
          at(entry, r, eloc),
        );
        continue;
      }
      if (
        assignment.node !== undefined &&
        !nodeNames.has(assignment.node) &&
        !ctx.registry.lookup(assignment.node, 'node')
      ) {
        diags.error(
          'TOSCA_UNKNOWN_NODE',
          `requirement ${r} of node template ${name} targets ${assignment.node}, which is neither a node template of this topology nor a node type`,
          isMap(value) ? at(value, 'node', assignment.loc) : at(entry, r, eloc),
        );
      }
      out.push(assignment);
    }
    for (const [r, d] of defs) {
      const [min, max] = occurrences(d.occurrences);
      const count = out.filter((a) => a.name === r).length;
      // A requirement mapped to the substituted node is fulfilled by whoever uses it.
      const mapped = mappedRequirements.has(`${name}\u0000${r}`) ? 1 : 0;
      if (count > max) {
        diags.error(
          'TOSCA_OCCURRENCES',
          `node template ${name} assigns requirement ${r} ${count} times; its type allows at most ${max}`,
          out.filter((a) => a.name === r)[max]?.loc ?? loc,
        );
      } else if (count + mapped < min) {
        diags.warning(
          'TOSCA_OCCURRENCES',
          `node template ${name} assigns requirement ${r} ${count} time(s); its type expects at least ${min} (it must be fulfilled at deployment)`,
          loc,
        );
      }
    }
    return out;
  }

  function buildCapabilities(
    name: string,
    rawNode: Record<string, unknown>,
    typeDef: Record<string, unknown> | undefined,
    scope: FunctionScope,
    loc: Location,
  ): NodeTemplate['capabilities'] {
    const out: NodeTemplate['capabilities'] = {};
    const caps = rawNode.capabilities;
    if (caps === undefined || caps === null) return out;
    if (!isMap(caps)) {
      diags.error(
        'TOSCA_SYNTAX',
        `capabilities of node template ${name} must be a map`,
        at(rawNode, 'capabilities', loc),
      );
      return out;
    }
    const defs = typeDef && isMap(typeDef.capabilities) ? typeDef.capabilities : undefined;
    for (const [c, value] of Object.entries(caps)) {
      const cloc = keyAt(caps, c, loc);
      const def = defs?.[c];
      if (typeDef && def === undefined) {
        diags.error(
          'TOSCA_UNKNOWN_CAPABILITY',
          `node template ${name} has no capability ${c} (its type defines: ${Object.keys(defs ?? {}).join(', ') || 'none'})`,
          cloc,
        );
        continue;
      }
      const v = isMap(value) ? value : {};
      const given = isMap(v.properties) ? v.properties : {};
      const evaluated = evaluate(given, scope, at(v, 'properties', cloc)) as Record<string, unknown>;
      const capTypeName = isMap(def) ? def.type : def;
      const capType =
        typeof capTypeName === 'string' ? ctx.registry.lookup(capTypeName, 'capability') : undefined;
      const properties = capType
        ? checkProperties(
            evaluated,
            capType.properties,
            `capability ${c} of node template ${name}`,
            cloc,
            ctx,
          )
        : evaluated;
      out[c] = { properties };
    }
    return out;
  }

  function buildArtifacts(
    name: string,
    rawNode: Record<string, unknown>,
    scope: FunctionScope,
    loc: Location,
  ): Record<string, ArtifactDefinition> {
    const out: Record<string, ArtifactDefinition> = {};
    const arts = rawNode.artifacts;
    if (arts === undefined || arts === null) return out;
    if (!isMap(arts)) {
      diags.error(
        'TOSCA_SYNTAX',
        `artifacts of node template ${name} must be a map`,
        at(rawNode, 'artifacts', loc),
      );
      return out;
    }
    for (const [a, value] of Object.entries(arts)) {
      const aloc = keyAt(arts, a, loc);
      let file: unknown;
      let typeName = 'tosca.artifacts.File';
      let props: Record<string, unknown> = {};
      const short = typeof value === 'string';
      if (short) file = value;
      else if (isMap(value)) {
        file = value.file;
        if (typeof value.type === 'string') typeName = value.type;
        else diags.error('TOSCA_SYNTAX', `artifact ${a} of node template ${name} has no type`, aloc);
        const type = ctx.registry.lookup(typeName, 'artifact');
        if (!type) {
          diags.error(
            'TOSCA_UNKNOWN_TYPE',
            `artifact ${a} of node template ${name} has type ${typeName}, which is not defined`,
            at(value, 'type', aloc),
          );
        } else typeName = type.name;
        const given = isMap(value.properties) ? value.properties : {};
        const evaluated = evaluate(given, scope, at(value, 'properties', aloc)) as Record<string, unknown>;
        props = type
          ? checkProperties(evaluated, type.properties, `artifact ${a} of node template ${name}`, aloc, ctx)
          : evaluated;
      }
      if (typeof file !== 'string' || file === '') {
        diags.error('TOSCA_SYNTAX', `artifact ${a} of node template ${name} needs a file`, aloc);
        continue;
      }
      const floc = short ? at(arts, a, aloc) : at(value, 'file', aloc);
      const path = artifactPath(file, `artifact ${a} of node template ${name}`, floc);
      const def: ArtifactDefinition = {
        name: a,
        type: typeName,
        file,
        path: path ?? file,
        ...(path === file && isHostPath(file, ctx.files) ? { hostPath: true } : {}),
        properties: props,
        loc: aloc,
      };
      if (short) shortNotation.add(def);
      out[a] = def;
    }
    return out;
  }

  /** Resolves an artifact file relative to the template's folder, checking it is in the package. */
  function artifactPath(file: string, what: string, loc: Location): string | undefined {
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(file)) return file;
    const path = posix.normalize(
      file.startsWith('/') ? file.slice(1) : posix.join(posix.dirname(ctx.file), file),
    );
    if (path === '..' || path.startsWith('../')) {
      diags.error('TOSCA_ARTIFACT_ESCAPES', `${what}: ${file} points outside the package`, loc);
      return undefined;
    }
    if (!ctx.files.has(path)) {
      const fromRoot = posix.normalize(file);
      if (!fromRoot.startsWith('../') && ctx.files.has(fromRoot)) {
        // Some VNFDs (and Tacker) take the path from the package root instead of the file's folder.
        diags.warning(
          'TOSCA_ARTIFACT_PATH',
          `${what}: ${file} is not in ${posix.dirname(ctx.file)}/ but at the package root (${fromRoot}); TOSCA resolves artifact files relative to the template's folder`,
          loc,
        );
        return fromRoot;
      }
      if (isHostPath(file, ctx.files)) {
        diags.tolerated(
          'TOSCA_ARTIFACT_HOST_PATH',
          `${what}: ${file} is an absolute path on the VNFM host, not a file of the package; Bosun cannot run it, so an operation that reaches it fails — ship the file in the package and give its path relative to the template`,
          loc,
        );
        return file;
      }
      diags.error('TOSCA_ARTIFACT_MISSING', `${what}: ${file} (${path}) is not in the package`, loc);
    }
    return path;
  }

  function buildInterfaces(
    name: string,
    rawNode: Record<string, unknown>,
    typeDef: Record<string, unknown> | undefined,
    artifacts: Record<string, ArtifactDefinition>,
    scope: FunctionScope,
    loc: Location,
  ): NodeTemplate['interfaces'] {
    const out: NodeTemplate['interfaces'] = {};
    const ifaces = rawNode.interfaces;
    if (ifaces === undefined || ifaces === null) return out;
    if (!isMap(ifaces)) {
      diags.error(
        'TOSCA_SYNTAX',
        `interfaces of node template ${name} must be a map`,
        at(rawNode, 'interfaces', loc),
      );
      return out;
    }
    const defs = typeDef && isMap(typeDef.interfaces) ? typeDef.interfaces : {};
    for (const [i, value] of Object.entries(ifaces)) {
      const iloc = keyAt(ifaces, i, loc);
      const def = defs[i];
      if (typeDef && def === undefined) {
        diags.error(
          'TOSCA_UNKNOWN_INTERFACE',
          `node template ${name} has no interface ${i} (its type defines: ${Object.keys(defs).join(', ') || 'none'})`,
          iloc,
        );
        continue;
      }
      const known = knownOperations(def);
      const ops: Record<string, OperationDefinition> = {};
      const v = isMap(value) ? value : {};
      const entries = { ...v, ...(isMap(v.operations) ? v.operations : {}) };
      const source = (op: string) =>
        isMap(v.operations) && Object.hasOwn(v.operations, op) ? v.operations : v;
      for (const [op, body] of Object.entries(entries)) {
        if (op === 'operations' || op === 'inputs' || op === 'type' || op === 'notifications') continue;
        const oloc = keyAt(source(op), op, iloc);
        if (known && !known.has(op)) {
          diags.warning(
            'TOSCA_UNKNOWN_OPERATION',
            `interface ${i} of node template ${name} has no operation ${op} in its type`,
            oloc,
          );
        }
        const operation: OperationDefinition = { loc: oloc };
        if (typeof body === 'string') operation.implementation = body;
        else if (isMap(body)) {
          const impl = body.implementation;
          if (typeof impl === 'string') operation.implementation = impl;
          else if (isMap(impl)) {
            if (typeof impl.primary === 'string') operation.implementation = impl.primary;
            else if (isMap(impl.primary) && typeof impl.primary.file === 'string')
              operation.implementation = impl.primary.file;
            if (Array.isArray(impl.dependencies)) {
              operation.dependencies = impl.dependencies.filter((d): d is string => typeof d === 'string');
            }
          }
          if (isMap(body.inputs)) {
            operation.inputs = evaluate(body.inputs, scope, at(body, 'inputs', oloc)) as Record<
              string,
              unknown
            >;
          }
        } else if (body !== null && !(Array.isArray(body) && body.length === 0)) {
          diags.error(
            'TOSCA_SYNTAX',
            `operation ${op} of interface ${i} of node template ${name} must be a map or an implementation`,
            oloc,
          );
          continue;
        }
        if (operation.implementation !== undefined && !Object.hasOwn(artifacts, operation.implementation)) {
          const impl = operation.implementation;
          const path = posix.normalize(posix.join(posix.dirname(ctx.file), impl));
          if (!ctx.files.has(path)) {
            diags.warning(
              'TOSCA_IMPLEMENTATION_MISSING',
              `operation ${op} of interface ${i} of node template ${name}: implementation ${impl} is neither an artifact of the node nor a file of the package`,
              oloc,
            );
          }
        }
        ops[op] = operation;
      }
      out[i] = ops;
    }
    return out;
  }

  function knownOperations(def: unknown): Set<string> | undefined {
    const typeName = isMap(def) ? def.type : undefined;
    const t = typeof typeName === 'string' ? ctx.registry.lookup(typeName, 'interface') : undefined;
    if (!t) return undefined;
    const meta = new Set([
      'derived_from',
      'description',
      'inputs',
      'operations',
      'notifications',
      'version',
      'metadata',
      'type',
    ]);
    const ops = new Set(Object.keys(t.definition).filter((k) => !meta.has(k)));
    if (isMap(t.definition.operations)) for (const k of Object.keys(t.definition.operations)) ops.add(k);
    if (isMap(def)) for (const k of Object.keys(def)) if (!meta.has(k)) ops.add(k);
    return ops;
  }

  // Groups.
  const groups: GroupTemplate[] = [];
  const rawGroups = section(raw, 'groups', ctx);
  for (const [name, g] of Object.entries(rawGroups)) {
    const loc = keyAt(rawGroups, name);
    if (!isMap(g) || typeof g.type !== 'string') {
      diags.error('TOSCA_SYNTAX', `group ${name} must be a map with a type`, loc);
      continue;
    }
    const type = ctx.registry.lookup(g.type, 'group');
    if (!type)
      diags.error(
        'TOSCA_UNKNOWN_TYPE',
        `group ${name} has type ${g.type}, which is not defined`,
        at(g, 'type', loc),
      );
    const members: string[] = [];
    for (const [i, m] of (Array.isArray(g.members) ? g.members : []).entries()) {
      if (typeof m === 'string' && (nodeNames.has(m) || Object.hasOwn(rawGroups, m))) members.push(m);
      else
        diags.error(
          'TOSCA_UNKNOWN_MEMBER',
          `group ${name}: member ${String(m)} is not a node template of this topology`,
          at(g.members, i, loc),
        );
    }
    const scope = scopeFor();
    const given = isMap(g.properties)
      ? (evaluate(g.properties, scope, at(g, 'properties', loc)) as Record<string, unknown>)
      : {};
    // tosca-parser does not require group properties (SOL001 PlacementGroup.description is
    // "required" but commonly omitted), so a missing one is only a warning here.
    const properties = type
      ? checkProperties(given, type.properties, `group ${name}`, loc, ctx, { missingSeverity: 'warning' })
      : given;
    groups.push({ name, type: type?.name ?? g.type, members, properties, loc });
  }
  const groupNames = new Set(groups.map((g) => g.name));

  // Policies: a list of one-key maps (TOSCA 1.2), or a map.
  const policies: PolicyTemplate[] = [];
  const rawPolicies = raw.policies;
  const policyEntries: [string, unknown, Location][] = [];
  if (Array.isArray(rawPolicies)) {
    for (const [i, entry] of rawPolicies.entries()) {
      if (isMap(entry) && Object.keys(entry).length === 1) {
        const [n, p] = Object.entries(entry)[0];
        policyEntries.push([n, p, keyAt(entry, n, at(rawPolicies, i))]);
      } else diags.error('TOSCA_SYNTAX', `policy ${i + 1} must be a map with one key`, at(rawPolicies, i));
    }
  } else if (isMap(rawPolicies)) {
    for (const [n, p] of Object.entries(rawPolicies)) policyEntries.push([n, p, keyAt(rawPolicies, n)]);
  } else if (rawPolicies !== undefined && rawPolicies !== null) {
    diags.error('TOSCA_SYNTAX', 'policies must be a list', at(raw, 'policies'));
  }
  for (const [name, p, loc] of policyEntries) {
    if (!isMap(p) || typeof p.type !== 'string') {
      diags.error('TOSCA_SYNTAX', `policy ${name} must be a map with a type`, loc);
      continue;
    }
    const type = ctx.registry.lookup(p.type, 'policy');
    if (!type)
      diags.error(
        'TOSCA_UNKNOWN_TYPE',
        `policy ${name} has type ${p.type}, which is not defined`,
        at(p, 'type', loc),
      );
    const targets: string[] = [];
    const validTargets = Array.isArray(type?.definition.targets)
      ? (type.definition.targets as unknown[]).filter((t): t is string => typeof t === 'string')
      : [];
    for (const [i, t] of (Array.isArray(p.targets) ? p.targets : []).entries()) {
      const tloc = at(p.targets, i, loc);
      if (typeof t !== 'string' || (!nodeNames.has(t) && !groupNames.has(t))) {
        diags.error(
          'TOSCA_UNKNOWN_TARGET',
          `policy ${name}: target ${String(t)} is not a node template or group of this topology`,
          tloc,
        );
        continue;
      }
      targets.push(t);
      const targetType = nodeTemplates[t]?.type ?? groups.find((g) => g.name === t)?.type;
      if (
        validTargets.length > 0 &&
        targetType &&
        !validTargets.some((v) => ctx.registry.isA(targetType, v))
      ) {
        diags.warning(
          'TOSCA_INVALID_TARGET',
          `policy ${name}: target ${t} (${targetType}) is not one of the types ${p.type} applies to (${validTargets.join(', ')})`,
          tloc,
        );
      }
    }
    const given = isMap(p.properties)
      ? (evaluate(p.properties, scopeFor(), at(p, 'properties', loc)) as Record<string, unknown>)
      : {};
    const properties = type ? checkProperties(given, type.properties, `policy ${name}`, loc, ctx) : given;
    policies.push({ name, type: type?.name ?? p.type, properties, targets, loc });
  }

  const topology: TopologyTemplate = { inputs, nodeTemplates, groups, policies };
  if (raw.substitution_mappings !== undefined && raw.substitution_mappings !== null) {
    const sm = buildSubstitution(raw.substitution_mappings, at(raw, 'substitution_mappings'));
    if (sm) topology.substitutionMappings = sm;
  }
  return topology;

  function buildSubstitution(s: unknown, loc: Location): SubstitutionMappings | undefined {
    if (!isMap(s) || typeof s.node_type !== 'string') {
      diags.error('TOSCA_SYNTAX', 'substitution_mappings must be a map with a node_type', loc);
      return undefined;
    }
    const type = ctx.registry.lookup(s.node_type, 'node');
    if (!type) {
      diags.error(
        'TOSCA_UNKNOWN_TYPE',
        `substitution_mappings: node_type ${s.node_type} is not defined`,
        at(s, 'node_type', loc),
      );
    }
    const given = isMap(s.properties) ? s.properties : {};
    const properties: Record<string, unknown> = {};
    // tosca-parser never checks these values against the type's constraints (a flavour_id
    // outside valid_values onboards in Tacker).
    const mappingCtx: ValueContext = { ...ctx, toleratedConstraint: 'TOSCA_MAPPING_CONSTRAINT' };
    for (const [p, v] of Object.entries(given)) {
      const ploc = at(given, p, loc);
      const def = type?.properties[p];
      if (type && !def) {
        diags.error(
          'TOSCA_UNKNOWN_PROPERTY',
          `substitution_mappings: node type ${type.name} has no property ${p}`,
          ploc,
        );
        continue;
      }
      const value = evaluate(v, scopeFor(), ploc);
      // TOSCA 1.2 also allows `[input_name]` (mapping an input), which is not a value to check.
      const isInputMapping =
        Array.isArray(value) && value.length === 1 && typeof value[0] === 'string' && def?.type !== 'list';
      defineEntry(
        properties,
        p,
        def && !isInputMapping
          ? checkValue(value, def, `substitution_mappings property ${p}`, ploc, mappingCtx)
          : value,
      );
    }
    copyLoc(properties, given);
    const mapping = (kind: 'requirements' | 'capabilities'): Record<string, string[]> => {
      const out: Record<string, string[]> = {};
      const m = s[kind];
      if (m === undefined || m === null) return out;
      if (!isMap(m)) {
        diags.error('TOSCA_SYNTAX', `substitution_mappings ${kind} must be a map`, at(s, kind, loc));
        return out;
      }
      const defined = new Set<string>();
      if (type && kind === 'requirements' && Array.isArray(type.definition.requirements)) {
        for (const e of type.definition.requirements)
          if (isMap(e)) for (const k of Object.keys(e)) defined.add(k);
      }
      if (type && kind === 'capabilities' && isMap(type.definition.capabilities)) {
        for (const k of Object.keys(type.definition.capabilities)) defined.add(k);
      }
      for (const [k, target] of Object.entries(m)) {
        const tloc = at(m, k, loc);
        if (Array.isArray(target) && target.length === 0) continue; // declared, not mapped
        if (!Array.isArray(target) || target.length !== 2 || !target.every((x) => typeof x === 'string')) {
          diags.error(
            'TOSCA_SYNTAX',
            `substitution_mappings ${kind} ${k} must be [node_template, ${kind === 'requirements' ? 'requirement' : 'capability'}]`,
            tloc,
          );
          continue;
        }
        if (type && !defined.has(k)) {
          diags.warning(
            'TOSCA_UNKNOWN_MAPPING',
            `substitution_mappings: node type ${type.name} has no ${kind === 'requirements' ? 'requirement' : 'capability'} ${k}`,
            keyAt(m, k, loc),
          );
        }
        if (!nodeNames.has(target[0])) {
          // tosca-parser (and so Tacker) accepts this; the mapping is unusable but harmless.
          diags.warning(
            'TOSCA_UNKNOWN_NODE',
            `substitution_mappings ${kind} ${k}: ${target[0]} is not a node template of this topology`,
            tloc,
          );
          continue;
        }
        out[k] = target as string[];
      }
      return out;
    };
    return {
      nodeType: type?.name ?? s.node_type,
      properties,
      requirements: mapping('requirements'),
      capabilities: mapping('capabilities'),
      loc: locOf(s) ?? loc,
    };
  }
}

function section(raw: Record<string, unknown>, key: string, ctx: TemplateContext): Record<string, unknown> {
  const v = raw[key];
  if (v === undefined || v === null) return {};
  if (!isMap(v)) {
    ctx.diags.error('TOSCA_SYNTAX', `${key} must be a map`, valueLoc(raw, key) ?? { file: ctx.file });
    return {};
  }
  return v;
}

function occurrences(v: unknown): [number, number] {
  if (Array.isArray(v) && v.length === 2) {
    const min = typeof v[0] === 'number' ? v[0] : 1;
    const max = v[1] === 'UNBOUNDED' ? UNBOUNDED : typeof v[1] === 'number' ? v[1] : 1;
    return [min, max];
  }
  return [1, 1];
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
