/**
 * `vnfProductsFromProviders`, the product criterion shared by the package filter (SOL005) and the
 * VNF instance filter (SOL002/SOL003): a provider, optionally some of its products, optionally
 * some software versions of a product, optionally some VNFD versions of a software version.
 */
import { type Static, Type } from '@sinclair/typebox';
import { isSet, listMatches } from './subscriptions/match.ts';

const text = (description: string) => Type.String({ description });

export const VnfProductsFromProvidersSchema = Type.Array(
  Type.Object(
    {
      vnfProvider: text('Name of the VNF provider to match.'),
      vnfProducts: Type.Optional(
        Type.Array(
          Type.Object(
            {
              vnfProductName: text('Name of the VNF product to match.'),
              versions: Type.Optional(
                Type.Array(
                  Type.Object(
                    {
                      vnfSoftwareVersion: text('Software version to match.'),
                      vnfdVersions: Type.Optional(
                        Type.Array(Type.String({ minLength: 1 }), { description: 'VNFD versions to match.' }),
                      ),
                    },
                    { additionalProperties: false },
                  ),
                ),
              ),
            },
            { additionalProperties: false },
          ),
        ),
      ),
    },
    { additionalProperties: false },
  ),
  { description: 'Match VNF products from certain providers (any entry).' },
);

export type VnfProductsFromProviders = Static<typeof VnfProductsFromProvidersSchema>;

/** What the product criterion looks at (of a package, or of the package of a VNF instance). */
export interface ProductFacts {
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
}

/** An absent or empty list matches every product. */
export function productMatches(
  providers: VnfProductsFromProviders | undefined,
  facts: ProductFacts,
): boolean {
  if (!isSet(providers)) return true;
  return providers.some((provider) => {
    if (provider.vnfProvider !== facts.vnfProvider) return false;
    if (!isSet(provider.vnfProducts)) return true;
    return provider.vnfProducts.some((product) => {
      if (product.vnfProductName !== facts.vnfProductName) return false;
      if (!isSet(product.versions)) return true;
      return product.versions.some(
        (version) =>
          version.vnfSoftwareVersion === facts.vnfSoftwareVersion &&
          listMatches(version.vnfdVersions, facts.vnfdVersion),
      );
    });
  });
}
