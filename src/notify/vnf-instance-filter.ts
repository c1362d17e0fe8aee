/**
 * SOL002/SOL003 VnfInstanceSubscriptionFilter, the instance criterion of the LCM, FM and PM
 * notifications filters: which VNF instances a subscriber hears about — by VNFD (vnfdIds, or
 * vnfProductsFromProviders), and by instance (vnfInstanceIds, or vnfInstanceNames). Each pair is
 * a pair of alternatives: SOL says they "should not be used both in the same filter instance".
 */
import { type Static, Type } from '@sinclair/typebox';
import { type ProductFacts, productMatches, VnfProductsFromProvidersSchema } from './product-filter.ts';
import { listMatches } from './subscriptions/match.ts';

const list = (description: string) => Type.Array(Type.String({ minLength: 1 }), { description });

export const VnfInstanceSubscriptionFilterSchema = Type.Object(
  {
    vnfdIds: Type.Optional(
      list('Match VNF instances created from one of these VNFDs. Alternative to vnfProductsFromProviders.'),
    ),
    vnfProductsFromProviders: Type.Optional(VnfProductsFromProvidersSchema),
    vnfInstanceIds: Type.Optional(list('Match these VNF instances. Alternative to vnfInstanceNames.')),
    vnfInstanceNames: Type.Optional(
      list('Match VNF instances with one of these names. Alternative to vnfInstanceIds.'),
    ),
  },
  {
    additionalProperties: false,
    description: 'VnfInstanceSubscriptionFilter: criteria to match VNF instances.',
  },
);

export type VnfInstanceSubscriptionFilter = Static<typeof VnfInstanceSubscriptionFilterSchema>;

/** Pairs of attributes that SOL declares alternatives: a filter gives at most one of each. */
export const ALTERNATIVE_ATTRIBUTES = [
  ['vnfdIds', 'vnfProductsFromProviders'],
  ['vnfInstanceIds', 'vnfInstanceNames'],
] as const;

/** Why the filter is not acceptable (both alternatives of a pair given), or undefined. */
export function vnfInstanceFilterProblem(
  filter: VnfInstanceSubscriptionFilter | undefined,
): string | undefined {
  if (!filter) return undefined;
  const pair = ALTERNATIVE_ATTRIBUTES.find(([a, b]) => filter[a] !== undefined && filter[b] !== undefined);
  return pair && `${pair[0]} and ${pair[1]} are alternatives: give only one of them`;
}

/** What the instance criterion looks at: the instance, and the VNFD/product it was created from. */
export interface VnfInstanceFacts extends ProductFacts {
  vnfInstanceId: string;
  vnfInstanceName?: string;
  vnfdId?: string;
}

/** An absent filter matches every instance. */
export function matchesVnfInstanceFilter(
  filter: VnfInstanceSubscriptionFilter | undefined,
  instance: VnfInstanceFacts,
): boolean {
  if (!filter) return true;
  return (
    listMatches(filter.vnfdIds, instance.vnfdId) &&
    productMatches(filter.vnfProductsFromProviders, instance) &&
    listMatches(filter.vnfInstanceIds, instance.vnfInstanceId) &&
    listMatches(filter.vnfInstanceNames, instance.vnfInstanceName)
  );
}
