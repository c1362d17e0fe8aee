/** The outbound-address policy check of a subscriber URL, failing as a CallError. */
import type { OutboundPolicy } from '../../net/address-policy.ts';
import { OutboundLookupError, OutboundRefusedError } from '../../net/errors.ts';
import { CallError } from './call-error.ts';

/** The addresses Bosun may connect to for `url` (nothing else is ever connected to). */
export async function checkedAddresses(policy: OutboundPolicy, url: URL): Promise<string[]> {
  try {
    return await policy.check(url);
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new CallError('REFUSED_ADDRESS', error.message);
    if (error instanceof OutboundLookupError) throw new CallError('UNRESOLVED', error.message);
    throw error;
  }
}

export function parseHttpUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CallError('REFUSED_ADDRESS', `the ${what} is not an absolute URI`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CallError('REFUSED_ADDRESS', `the ${what} must be an http or https URI`);
  }
  return url;
}
