/**
 * A `lookup` for http.request / https.request / net.connect that answers only with addresses
 * the outbound policy has already checked. Connecting through it means a second DNS answer
 * (DNS rebinding) cannot swap the checked address for another; the request keeps its host name
 * for the Host header, SNI and certificate checks.
 */
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

export type PinnedLookup = (host: string, options: { all?: boolean }, callback: LookupCallback) => void;

export function pinnedLookup(addresses: readonly string[]): PinnedLookup {
  if (addresses.length === 0) throw new Error('pinnedLookup needs at least one checked address');
  const pinned: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_host, options, callback) => {
    // net asks for every address when it races IPv6 and IPv4 (autoSelectFamily)
    if (options.all) callback(null, pinned);
    else callback(null, pinned[0].address, pinned[0].family);
  };
}
