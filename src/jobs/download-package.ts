/**
 * The upload_from_uri step of an onboarding job: download the package through the outbound
 * policy (refused addresses fail the onboarding with that reason) into the blob store.
 */
import type { Config } from '../config/load.ts';
import { OutboundPolicy } from '../net/address-policy.ts';
import { download } from '../net/download.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { BlobStore, PutResult } from '../store/blobs/blob-store.ts';

export interface UriSource {
  kind: 'uri';
  uri: string;
  /** SealedBox-sealed JSON {userName, password}. */
  sealedCredentials?: string;
}

export async function downloadPackage(
  config: Config,
  box: SealedBox,
  blobs: BlobStore,
  key: string,
  source: UriSource,
): Promise<PutResult> {
  const basicAuth = source.sealedCredentials
    ? (JSON.parse(box.open(source.sealedCredentials).toString('utf8')) as {
        userName: string;
        password: string;
      })
    : undefined;
  const { packages } = config;
  const response = await download(source.uri, {
    policy: new OutboundPolicy(config.outbound.allow),
    basicAuth,
    connectTimeoutMs: packages.uriConnectTimeoutMs,
    readTimeoutMs: packages.uriReadTimeoutMs,
    maxRedirects: packages.uriMaxRedirects,
    maxBytes: packages.maxUploadBytes,
  });
  return blobs.put(key, response.body, {
    maxBytes: packages.maxUploadBytes,
    digests: ['sha-512'],
    zipScan: {},
    sizeHint: response.contentLength,
  });
}
