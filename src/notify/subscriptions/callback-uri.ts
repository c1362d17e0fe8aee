/**
 * URIs a subscriber makes Bosun call (callbackUri, token endpoints): absolute http(s) without
 * credentials (400 when not a URI at all, 422 otherwise) and allowed by the operator's
 * outbound-address policy (422 with the policy's reason), so that a subscriber cannot make Bosun
 * call internal services.
 */

import type { OutboundPolicy } from '../../net/address-policy.ts';
import { OutboundLookupError, OutboundRefusedError } from '../../net/errors.ts';
import { ApiError } from '../../sol/problem.ts';

export async function checkOutboundUri(name: string, uri: string, policy: OutboundPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ApiError(400, `${name} ${JSON.stringify(uri)} is not an absolute URI.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(422, `${name} must be an http or https URI, not ${url.protocol.replace(/:$/, '')}.`);
  }
  if (url.username || url.password) {
    const hint = name === 'callbackUri' ? ': use authentication.paramsBasic' : '';
    throw new ApiError(422, `${name} must not carry credentials${hint}.`);
  }
  try {
    await policy.check(url);
  } catch (error) {
    if (error instanceof OutboundRefusedError || error instanceof OutboundLookupError) {
      throw new ApiError(422, `${name} refused: ${error.message}`);
    }
    throw error;
  }
  return url;
}
