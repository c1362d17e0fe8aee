/**
 * The hash algorithms SOL004 allows in a package's manifest and artifact entries, and their names
 * in node:crypto. Data for the package reader and for the blob store, which digests packages as
 * it stores them.
 */
export type HashAlgorithm = 'sha-224' | 'sha-256' | 'sha-384' | 'sha-512';

export const NODE_HASH_NAMES: Record<HashAlgorithm, string> = {
  'sha-224': 'sha224',
  'sha-256': 'sha256',
  'sha-384': 'sha384',
  'sha-512': 'sha512',
};
