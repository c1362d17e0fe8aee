/**
 * The NFVO `nfvo.mode` names: the local one, or the external one at `nfvo.external.apiRoot` with
 * its authentication, called through the outbound policy (a private NFVO address must be in
 * outbound.allow). Built once by the runtime; a configuration that cannot work stops the start.
 */
import type { Config } from '../config/load.ts';
import { OutboundPolicy } from '../net/address-policy.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import { ExternalNfvo } from './external-nfvo.ts';
import { LocalNfvo } from './local-nfvo.ts';
import type { Nfvo } from './nfvo.ts';
import { nfvoEndpoint } from './nfvo-auth.ts';
import { NfvoClient } from './nfvo-client.ts';

export interface NfvoSetup {
  nfvo: Nfvo;
  /** The external NFVO's client (packages are fetched through it); undefined in local mode. */
  client?: NfvoClient;
  close(): void;
}

export function createNfvo(config: Config, box: SealedBox): NfvoSetup {
  if (config.nfvo.mode === 'local') return { nfvo: new LocalNfvo(), close() {} };
  const external = config.nfvo.external;
  const client = new NfvoClient(nfvoEndpoint(external), OutboundPolicy.fromConfig(config), {
    timeoutMs: external.timeoutMs,
    maxResponseBytes: external.maxResponseBytes,
  });
  const nfvo = new ExternalNfvo(client, box, {
    grantApiVersion: external.grantApiVersion,
    grantTimeoutMs: external.grantTimeoutMs,
    pollIntervalMs: external.pollIntervalMs,
  });
  return { nfvo, client, close: () => client.close() };
}
