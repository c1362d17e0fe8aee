/**
 * A node template's interfaces: each one its type defines, its operations (directly under the
 * interface or under `operations`) with their implementation, dependencies and inputs. An
 * implementation is an artifact of the node or a file of the package.
 */

import { posix } from 'node:path';
import { ownValue, setOwn } from '../../../own-properties.ts';
import type { Location } from '../../diagnostics.ts';
import { evaluate, type FunctionScope } from '../functions.ts';
import type { ArtifactDefinition, NodeTemplate, OperationDefinition } from '../model.ts';
import { isMap } from '../type-registry.ts';
import type { SectionContext } from './context.ts';

/** Keys of an interface assignment that are not operations. */
const NOT_OPERATIONS = new Set(['operations', 'inputs', 'type', 'notifications']);

/** Keys of an interface type definition that are not operations. */
const INTERFACE_TYPE_KEYS = new Set([
  'derived_from',
  'description',
  'inputs',
  'operations',
  'notifications',
  'version',
  'metadata',
  'type',
]);

/** Where a node template's operation is: node, interface and operation names, and its location. */
interface OperationSite {
  name: string;
  i: string;
  op: string;
  oloc: Location;
}

export function buildInterfaces(
  name: string,
  rawNode: Record<string, unknown>,
  typeDef: Record<string, unknown> | undefined,
  artifacts: Record<string, ArtifactDefinition>,
  scope: FunctionScope,
  loc: Location,
  ctx: SectionContext,
): NodeTemplate['interfaces'] {
  const out: NodeTemplate['interfaces'] = {};
  const ifaces = rawNode.interfaces;
  if (ifaces === undefined || ifaces === null) return out;
  if (!isMap(ifaces)) {
    ctx.diags.error(
      'TOSCA_SYNTAX',
      `interfaces of node template ${name} must be a map`,
      ctx.at(rawNode, 'interfaces', loc),
    );
    return out;
  }
  const defs = typeDef && isMap(typeDef.interfaces) ? typeDef.interfaces : {};
  for (const [i, value] of Object.entries(ifaces)) {
    const iloc = ctx.keyAt(ifaces, i, loc);
    const def = ownValue(defs, i);
    if (typeDef && def === undefined) {
      ctx.diags.error(
        'TOSCA_UNKNOWN_INTERFACE',
        `node template ${name} has no interface ${i} (its type defines: ${Object.keys(defs).join(', ') || 'none'})`,
        iloc,
      );
      continue;
    }
    const ops = buildOperations(name, i, value, knownOperations(def, ctx), artifacts, scope, iloc, ctx);
    setOwn(out, i, ops);
  }
  return out;
}

/** The operations of interface `i` (written at `iloc`); `known` are those its type declares. */
function buildOperations(
  name: string,
  i: string,
  value: unknown,
  known: Set<string> | undefined,
  artifacts: Record<string, ArtifactDefinition>,
  scope: FunctionScope,
  iloc: Location,
  ctx: SectionContext,
): Record<string, OperationDefinition> {
  const ops: Record<string, OperationDefinition> = {};
  const v = isMap(value) ? value : {};
  const entries = { ...v, ...(isMap(v.operations) ? v.operations : {}) };
  const source = (op: string) => (isMap(v.operations) && Object.hasOwn(v.operations, op) ? v.operations : v);
  for (const [op, body] of Object.entries(entries)) {
    if (NOT_OPERATIONS.has(op)) continue;
    const site: OperationSite = { name, i, op, oloc: ctx.keyAt(source(op), op, iloc) };
    if (known && !known.has(op)) {
      ctx.diags.warning(
        'TOSCA_UNKNOWN_OPERATION',
        `interface ${i} of node template ${name} has no operation ${op} in its type`,
        site.oloc,
      );
    }
    const operation = buildOperation(site, body, scope, ctx);
    if (!operation) continue;
    checkImplementation(site, operation, artifacts, ctx);
    setOwn(ops, op, operation);
  }
  return ops;
}

/** An operation: an implementation, or a map of implementation and inputs; else undefined. */
function buildOperation(
  site: OperationSite,
  body: unknown,
  scope: FunctionScope,
  ctx: SectionContext,
): OperationDefinition | undefined {
  const operation: OperationDefinition = { loc: site.oloc };
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
      operation.inputs = evaluate(body.inputs, scope, ctx.at(body, 'inputs', site.oloc)) as Record<
        string,
        unknown
      >;
    }
  } else if (body !== null && !(Array.isArray(body) && body.length === 0)) {
    ctx.diags.error(
      'TOSCA_SYNTAX',
      `operation ${site.op} of interface ${site.i} of node template ${site.name} must be a map or an implementation`,
      site.oloc,
    );
    return undefined;
  }
  return operation;
}

/** An implementation that is no artifact of the node must be a file of the package (a warning). */
function checkImplementation(
  site: OperationSite,
  operation: OperationDefinition,
  artifacts: Record<string, ArtifactDefinition>,
  ctx: SectionContext,
): void {
  const impl = operation.implementation;
  if (impl === undefined || Object.hasOwn(artifacts, impl)) return;
  const path = posix.normalize(posix.join(posix.dirname(ctx.file), impl));
  if (!ctx.files.has(path)) {
    ctx.diags.warning(
      'TOSCA_IMPLEMENTATION_MISSING',
      `operation ${site.op} of interface ${site.i} of node template ${site.name}: implementation ${impl} is neither an artifact of the node nor a file of the package`,
      site.oloc,
    );
  }
}

/** The operations interface assignment `def` may have: its type's and its own; none without a type. */
function knownOperations(def: unknown, ctx: SectionContext): Set<string> | undefined {
  const typeName = isMap(def) ? def.type : undefined;
  const t = typeof typeName === 'string' ? ctx.registry.lookup(typeName, 'interface') : undefined;
  if (!t) return undefined;
  const ops = new Set(Object.keys(t.definition).filter((k) => !INTERFACE_TYPE_KEYS.has(k)));
  if (isMap(t.definition.operations)) for (const k of Object.keys(t.definition.operations)) ops.add(k);
  if (isMap(def)) for (const k of Object.keys(def)) if (!INTERFACE_TYPE_KEYS.has(k)) ops.add(k);
  return ops;
}
