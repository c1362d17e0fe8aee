/**
 * `node_templates`: each template's type, its properties checked against the type with functions
 * evaluated, its attributes, and its requirements, capabilities, artifacts and interfaces. A
 * template that is not a map or has no type is reported and left out.
 */
import { setOwn } from '../../../own-properties.ts';
import type { Location } from '../../diagnostics.ts';
import { article } from '../article.ts';
import { checkProperties, defineEntry } from '../data-types.ts';
import { evaluate, type FunctionScope } from '../functions.ts';
import type { NodeTemplate, ToscaType } from '../model.ts';
import { isMap } from '../type-registry.ts';
import { copyLoc } from '../yaml-source.ts';
import { buildArtifacts } from './artifacts.ts';
import { buildCapabilities } from './capabilities.ts';
import type { SectionContext } from './context.ts';
import { buildInterfaces } from './interfaces.ts';
import { buildRequirements } from './requirements.ts';

/** `mappedRequirements` holds `node\0requirement` for requirements substitution_mappings maps. */
export function buildNodeTemplates(
  rawNodes: Record<string, unknown>,
  mappedRequirements: ReadonlySet<string>,
  ctx: SectionContext,
): Record<string, NodeTemplate> {
  const nodeTemplates: Record<string, NodeTemplate> = {};
  for (const [name, rawNode] of Object.entries(rawNodes)) {
    const template = buildNodeTemplate(name, rawNode, ctx.keyAt(rawNodes, name), mappedRequirements, ctx);
    if (template) setOwn(nodeTemplates, name, template);
  }
  return nodeTemplates;
}

function buildNodeTemplate(
  name: string,
  rawNode: unknown,
  loc: Location,
  mappedRequirements: ReadonlySet<string>,
  ctx: SectionContext,
): NodeTemplate | undefined {
  if (!isMap(rawNode)) {
    ctx.diags.error('TOSCA_SYNTAX', `node template ${name} must be a map`, loc);
    return undefined;
  }
  const typeName = rawNode.type;
  if (typeof typeName !== 'string') {
    ctx.diags.error('TOSCA_SYNTAX', `node template ${name} has no type`, loc);
    return undefined;
  }
  const type = nodeType(name, typeName, ctx.at(rawNode, 'type', loc), ctx);
  const scope = ctx.scopeFor(name);
  const { properties, propertyLocs } = nodeProperties(name, rawNode, type, scope, loc, ctx);
  const attributes = isMap(rawNode.attributes)
    ? (evaluate(rawNode.attributes, scope, ctx.at(rawNode, 'attributes', loc)) as Record<string, unknown>)
    : {};
  const requirements =
    type?.kind === 'node'
      ? buildRequirements(name, rawNode, type.definition, loc, mappedRequirements, ctx)
      : [];
  const capabilities = buildCapabilities(name, rawNode, type?.definition, scope, loc, ctx);
  const artifacts = buildArtifacts(name, rawNode, scope, loc, ctx);
  const interfaces = buildInterfaces(name, rawNode, type?.definition, artifacts, scope, loc, ctx);
  return {
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

/** The template's type; one that is not defined, or not a node type, is reported. */
function nodeType(name: string, typeName: string, loc: Location, ctx: SectionContext): ToscaType | undefined {
  const type = ctx.registry.lookup(typeName, 'node');
  if (!type) {
    ctx.diags.error(
      'TOSCA_UNKNOWN_TYPE',
      `node template ${name} has type ${typeName}, which is not defined (missing import?)`,
      loc,
    );
  } else if (type.kind !== 'node') {
    ctx.diags.error(
      'TOSCA_TYPE_KIND',
      `node template ${name} has type ${typeName}, which is ${article(type.kind)} ${type.kind} type`,
      loc,
    );
  }
  return type;
}

/** The properties as assigned, functions evaluated, then checked against a node type. */
function nodeProperties(
  name: string,
  rawNode: Record<string, unknown>,
  type: ToscaType | undefined,
  scope: FunctionScope,
  loc: Location,
  ctx: SectionContext,
): Pick<NodeTemplate, 'properties' | 'propertyLocs'> {
  const owner = `node template ${name}`;
  const givenProps = isMap(rawNode.properties) ? rawNode.properties : {};
  if (rawNode.properties !== undefined && rawNode.properties !== null && !isMap(rawNode.properties)) {
    ctx.diags.error(
      'TOSCA_SYNTAX',
      `properties of ${owner} must be a map`,
      ctx.at(rawNode, 'properties', loc),
    );
  }
  const evaluatedProps: Record<string, unknown> = {};
  const propertyLocs: Record<string, Location> = {};
  for (const p of Object.keys(givenProps)) {
    defineEntry(evaluatedProps, p, scope.property(name, p).value);
    setOwn(propertyLocs, p, ctx.at(givenProps, p, loc));
  }
  copyLoc(evaluatedProps, givenProps);
  const properties =
    type?.kind === 'node'
      ? checkProperties(evaluatedProps, type.properties, owner, loc, ctx)
      : evaluatedProps;
  return { properties, propertyLocs };
}
