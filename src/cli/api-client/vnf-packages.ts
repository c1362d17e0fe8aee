/** SOL005 v2.6.1 `/vnfpkgm/v1/vnf_packages` calls of the CLI. */
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../output.ts';
import { progressStream } from '../progress.ts';
import type { ApiClient } from './client.ts';

export const V1 = '/vnfpkgm/v1/vnf_packages';

export interface VnfPkgInfo {
  id: string;
  vnfdId?: string;
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
  onboardingState: string;
  operationalState: string;
  usageState: string;
  userDefinedData?: Record<string, unknown>;
  /** Why the last onboarding failed (the package is CREATED again). */
  onboardingFailureDetails?: { detail?: string };
  [key: string]: unknown;
}

const path = (id: string, rest = '') => `${V1}/${encodeURIComponent(id)}${rest}`;

export const createPackage = (api: ApiClient, userDefinedData?: Record<string, string>) =>
  api.json<VnfPkgInfo>('POST', V1, { json: userDefinedData ? { userDefinedData } : {} });

export const getPackage = (api: ApiClient, id: string) => api.json<VnfPkgInfo>('GET', path(id));

export const listPackages = (api: ApiClient, query: URLSearchParams) => {
  const q = query.toString();
  return api.list<VnfPkgInfo>(q ? `${V1}?${q}` : V1);
};

export const patchPackage = (api: ApiClient, id: string, body: object, ifMatch?: string) =>
  api.json<Record<string, unknown>>('PATCH', path(id), {
    json: body,
    contentType: 'application/merge-patch+json',
    headers: ifMatch ? { 'if-match': ifMatch } : {},
  });

export const deletePackage = (api: ApiClient, id: string) => api.request('DELETE', path(id));

/** PUT the zip as the raw body, streamed from disk through the progress bar. */
export async function uploadContent(
  api: ApiClient,
  id: string,
  file: string,
  quiet?: boolean,
): Promise<void> {
  const size = (await stat(file)).size;
  const bar = progressStream({ label: 'upload', total: size, quiet });
  const body = createReadStream(file).pipe(bar);
  await api.request('PUT', path(id, '/package_content'), {
    stream: body,
    contentType: 'application/zip',
    headers: { accept: 'application/json, application/problem+json' },
  });
}

export function uploadFromUri(
  api: ApiClient,
  id: string,
  addressInformation: string,
  user?: string,
  password?: string,
) {
  const body: Record<string, string> = { addressInformation };
  if (user !== undefined) body.userName = user;
  if (password !== undefined) body.password = password;
  return api.request('POST', path(id, '/package_content/upload_from_uri'), { json: body });
}

/** GETs `rest` of the package into `file` (streamed, with progress). */
export async function downloadTo(
  api: ApiClient,
  id: string,
  rest: string,
  file: string,
  accept: string,
  quiet?: boolean,
): Promise<{ bytes: number; contentType: string }> {
  const res = await api.request('GET', path(id, rest), { headers: { accept } });
  const length = Number(res.headers.get('content-length'));
  const bar = progressStream({ label: 'download', total: length > 0 ? length : undefined, quiet });
  if (!res.body) throw new CliError(`the server sent no content for ${rest || id}`);
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), bar, createWriteStream(file));
  } catch (err) {
    await rm(file, { force: true }); // no half-written file left behind
    throw err;
  }
  return { bytes: (await stat(file)).size, contentType: res.headers.get('content-type') ?? '' };
}

/** The reason onboarding failed: onboardingFailureDetails, which Bosun shows on v1 too. */
export function failureReason(info: VnfPkgInfo): string {
  return info.onboardingFailureDetails?.detail ?? 'onboarding failed';
}

const BUSY = new Set(['UPLOADING', 'PROCESSING']);

/** Polls until onboarding leaves UPLOADING/PROCESSING; throws after `timeoutSeconds`. */
export async function waitOnboarding(
  api: ApiClient,
  id: string,
  timeoutSeconds: number,
): Promise<VnfPkgInfo> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let delay = 100;
  for (;;) {
    const info = await getPackage(api, id);
    if (!BUSY.has(info.onboardingState)) return info;
    if (Date.now() >= deadline) {
      throw new CliError(`package ${id} still ${info.onboardingState} after ${timeoutSeconds} s`);
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 1000);
  }
}
