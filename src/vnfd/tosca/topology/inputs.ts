/** The topology's `inputs`: their definitions, defaults checked, and the assigned values checked. */
import { ownValue, setOwn } from '../../../own-properties.ts';
import { checkValue } from '../data-types.ts';
import type { PropertyDefinition, TopologyTemplate } from '../model.ts';
import { isMap, propertyDefinition } from '../type-registry.ts';
import { section, type TopologyContext } from './context.ts';

export function buildInputs(raw: Record<string, unknown>, ctx: TopologyContext): TopologyTemplate['inputs'] {
  const inputs: TopologyTemplate['inputs'] = {};
  const inputDefs: Record<string, PropertyDefinition> = {};
  const rawInputs = section(raw, 'inputs', ctx);
  for (const [name, def] of Object.entries(rawInputs)) {
    const d = isMap(def) ? def : {};
    const pd = propertyDefinition(d);
    setOwn(inputDefs, name, pd);
    const entry: TopologyTemplate['inputs'][string] = { type: pd.type };
    if (typeof d.description === 'string') entry.description = d.description;
    if ('default' in d) {
      entry.default = checkValue(
        d.default,
        pd,
        `default of input ${name}`,
        ctx.at(d, 'default', ctx.keyAt(rawInputs, name)),
        ctx,
      );
    }
    setOwn(inputs, name, entry);
  }
  for (const [name, v] of Object.entries(ctx.inputValues ?? {})) {
    const def = ownValue(inputDefs, name);
    if (def) checkValue(v, def, `input ${name}`, ctx.loc, ctx);
  }
  return inputs;
}
