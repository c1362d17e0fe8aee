/**
 * The SOL013 list-filter vocabulary of a subscription resource, derived from its schemas rather
 * than written out: `id`, `callbackUri` (and `verbosity` where stored) on their columns, and every
 * leaf of the notifications filter as `filter/<path>` (arrays are transparent, enumerations keep
 * their values), e.g. `filter/vnfInstanceSubscriptionFilter/vnfProductsFromProviders/vnfProvider`.
 */
import type { AttributeMap, AttributeSpec } from '../../sol/attributes.ts';
import { type SubscriptionApi, VERBOSITIES } from './definition.ts';

interface JsonSchema {
  type?: string;
  enum?: readonly string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

function leaves(schema: JsonSchema, path: string): [string, AttributeSpec][] {
  if (schema.properties) {
    return Object.entries(schema.properties).flatMap(([key, child]) => leaves(child, `${path}/${key}`));
  }
  if (schema.items) return leaves(schema.items, path);
  if (schema.enum) return [[path, { type: 'enum', values: schema.enum }]];
  if (schema.type === 'string') return [[path, { type: 'string' }]];
  return [];
}

export function subscriptionAttributes(definition: SubscriptionApi): AttributeMap {
  return {
    id: { type: 'uuid', column: 'id' },
    callbackUri: { type: 'string', column: 'callback_uri' },
    ...(definition.verbosity === 'stored'
      ? { verbosity: { type: 'enum', values: VERBOSITIES, column: 'verbosity' } as const }
      : {}),
    ...Object.fromEntries(leaves(definition.filterSchema as JsonSchema, 'filter')),
  };
}
