/**
 * The scope intrinsic functions are evaluated in: `get_input` reads the assigned value, else the
 * default; `get_property` reads another template's property (or a capability's), evaluated once
 * and remembered, a property that refers back to itself reported.
 */
import { ownValue } from '../../../own-properties.ts';
import { evaluate, type FunctionScope } from '../functions.ts';
import type { PropertyDefinition, TopologyTemplate } from '../model.ts';
import { isMap } from '../type-registry.ts';
import type { TopologyContext } from './context.ts';

export function functionScopes(
  inputs: TopologyTemplate['inputs'],
  rawNodes: Record<string, unknown>,
  nodeNames: ReadonlySet<string>,
  ctx: TopologyContext,
): (self?: string) => FunctionScope {
  const nodeRaw = (name: string) =>
    isMap(rawNodes[name]) ? (rawNodes[name] as Record<string, unknown>) : {};
  const nodeType = (name: string) => {
    const t = nodeRaw(name).type;
    return typeof t === 'string' ? ctx.registry.lookup(t, 'node') : undefined;
  };
  /** The map holding the property and the definitions giving its default. */
  const holderOf = (node: string, capability: string | undefined) => {
    const r = nodeRaw(node);
    if (capability === undefined) return { holder: r.properties, defs: nodeType(node)?.properties };
    const caps = r.capabilities;
    const holder: unknown =
      isMap(caps) && isMap(caps[capability])
        ? (caps[capability] as Record<string, unknown>).properties
        : undefined;
    return { holder, defs: undefined as Record<string, PropertyDefinition> | undefined };
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
      const { holder, defs } = holderOf(node, capability);
      const key = `${node}\u0000${capability ?? ''}\u0000${name}`;
      if (memo.has(key)) return { node: true, found: true, value: memo.get(key) };
      let value: unknown;
      if (isMap(holder) && Object.hasOwn(holder, name)) value = holder[name];
      else if (defs && ownValue(defs, name)?.default !== undefined) value = defs[name].default;
      else return { node: true, found: false };
      if (busy.has(key)) {
        ctx.diags.error(
          'TOSCA_FUNCTION',
          `get_property: property ${name} of ${node} refers to itself`,
          ctx.at(holder, name),
        );
        return { node: true, found: false };
      }
      busy.add(key);
      const evaluated = evaluate(value, scopeFor(node), ctx.at(holder, name));
      busy.delete(key);
      memo.set(key, evaluated);
      return { node: true, found: true, value: evaluated };
    },
    report: (code, message, loc) => ctx.diags.error(code, message, loc),
  });
  return scopeFor;
}
