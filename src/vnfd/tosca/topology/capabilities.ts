/** A node template's capabilities: each one its type defines, its properties checked against the capability type. */
import { ownValue, setOwn } from '../../../own-properties.ts';
import type { Location } from '../../diagnostics.ts';
import { checkProperties } from '../data-types.ts';
import { evaluate, type FunctionScope } from '../functions.ts';
import type { NodeTemplate } from '../model.ts';
import { isMap } from '../type-registry.ts';
import type { SectionContext } from './context.ts';

export function buildCapabilities(
  name: string,
  rawNode: Record<string, unknown>,
  typeDef: Record<string, unknown> | undefined,
  scope: FunctionScope,
  loc: Location,
  ctx: SectionContext,
): NodeTemplate['capabilities'] {
  const out: NodeTemplate['capabilities'] = {};
  const caps = rawNode.capabilities;
  if (caps === undefined || caps === null) return out;
  if (!isMap(caps)) {
    ctx.diags.error(
      'TOSCA_SYNTAX',
      `capabilities of node template ${name} must be a map`,
      ctx.at(rawNode, 'capabilities', loc),
    );
    return out;
  }
  const defs = typeDef && isMap(typeDef.capabilities) ? typeDef.capabilities : undefined;
  for (const [c, value] of Object.entries(caps)) {
    const cloc = ctx.keyAt(caps, c, loc);
    const def = defs && ownValue(defs, c);
    if (typeDef && def === undefined) {
      ctx.diags.error(
        'TOSCA_UNKNOWN_CAPABILITY',
        `node template ${name} has no capability ${c} (its type defines: ${Object.keys(defs ?? {}).join(', ') || 'none'})`,
        cloc,
      );
      continue;
    }
    const v = isMap(value) ? value : {};
    const given = isMap(v.properties) ? v.properties : {};
    const evaluated = evaluate(given, scope, ctx.at(v, 'properties', cloc)) as Record<string, unknown>;
    const capTypeName = isMap(def) ? def.type : def;
    const capType =
      typeof capTypeName === 'string' ? ctx.registry.lookup(capTypeName, 'capability') : undefined;
    const properties = capType
      ? checkProperties(evaluated, capType.properties, `capability ${c} of node template ${name}`, cloc, ctx)
      : evaluated;
    setOwn(out, c, { properties });
  }
  return out;
}
