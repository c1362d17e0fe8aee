/**
 * The NFVO `nfvo.mode` names: the local one, or the external one at `nfvo.external.apiRoot` with
 * its authentication, called through the outbound policy (a private NFVO address must be in
 * outbound.allow). Built once by the runtime; a configuration that cannot work stops the start.
 */
import type { Config } from '../config/load.ts';
import { OutboundPolicy } from '../net/address-policy.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { Database } from '../store/db/database.ts';
import { ExternalNfvo } from './external-nfvo.ts';
import { LocalNfvo } from './local-nfvo.ts';
import type { Nfvo } from './nfvo.ts';
import { nfvoEndpoint } from './nfvo-auth.ts';
import { NfvoClient } from './nfvo-client.ts';
import { NfvoPackages } from './nfvo-packages.ts';

export interface NfvoSetup {
  nfvo: Nfvo;
  /** The external NFVO's client; undefined in local mode. */
  client?: NfvoClient;
  /** Packages fetched through the external NFVO; undefined in local mode. */
  packages?: NfvoPackages;
  close(): void;
}

/** Where fetched packages go (the runtime's); without it, packages are not fetched. */
export interface PackageStore {
  db: Database;
  blobs: BlobStore;
  /** Wakes this process's onboarding worker, if it has one. */
  wakeOnboarding(): void;
}

export function createNfvo(config: Config, box: SealedBox, store?: PackageStore): NfvoSetup {
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
  if (!store) return { nfvo, client, close: () => client.close() };
  const packages = new NfvoPackages({
    ...store,
    client,
    settings: {
      vnfpkgmApiVersion: external.vnfpkgmApiVersion,
      maxUploadBytes: config.packages.maxUploadBytes,
      leaseMs: config.worker.leaseMs,
      onboardTimeoutMs: external.packageTimeoutMs,
      pollIntervalMs: Math.min(config.worker.pollIntervalMs, 250),
    },
  });
  return { nfvo, client, packages, close: () => client.close() };
}
