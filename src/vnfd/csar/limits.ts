/** Limits applied while reading a package: everything a vendor sends is bounded. */
export interface CsarLimits {
  /** Largest uncompressed size of one entry (images included). */
  maxEntryBytes: number;
  /** Largest uncompressed size of the whole package. */
  maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio of an entry (zip bombs), for entries over 1 MiB. */
  maxCompressionRatio: number;
  maxEntries: number;
  /** Largest file read as text (descriptors, TOSCA.meta, manifests). */
  maxTextBytes: number;
}

export const DEFAULT_CSAR_LIMITS: CsarLimits = {
  maxEntryBytes: 64 * 2 ** 30,
  maxTotalBytes: 64 * 2 ** 30,
  maxCompressionRatio: 200,
  maxEntries: 10_000,
  maxTextBytes: 16 * 2 ** 20,
};
