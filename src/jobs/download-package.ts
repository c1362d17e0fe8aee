/**
 * The upload_from_uri step of an onboarding job: download the package through the outbound
 * policy (refused addresses fail the onboarding with that reason) into the blob store. When the
 * job's signal aborts (its lease was lost, or the worker stops) the download's stream is
 * destroyed: nothing more is read, and the blob store writes nothing.
 */
import { addAbortSignal } from 'node:stream';
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
  signal: AbortSignal,
): Promise<PutResult> {
  signal.throwIfAborted();
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
  try {
    return await blobs.put(key, addAbortSignal(signal, response.body), {
      maxBytes: packages.maxUploadBytes,
      digests: ['sha-512'],
      zipScan: {},
      sizeHint: response.contentLength,
    });
  } catch (err) {
    // A store that failed leaves the source to its owner: the download is not needed any more.
    response.body.destroy();
    throw err;
  }
}
