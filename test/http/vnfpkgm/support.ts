/** Helpers for the package API tests: create, upload, wait for onboarding to end. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { http } from '../../support/http.ts';
import { SAMPLES_DIR } from '../../support/samples.ts';

export interface PkgInfo {
  id: string;
  onboardingState: string;
  operationalState: string;
  usageState: string;
  vnfdId?: string;
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
  checksum?: { algorithm: string; hash: string };
  softwareImages?: Record<string, unknown>[];
  additionalArtifacts?: { artifactPath: string; checksum: { algorithm: string; hash: string } }[];
  userDefinedData?: Record<string, unknown>;
  onboardingFailureDetails?: { status: number; detail: string };
  _links: Record<string, { href: string }>;
}

export const V1 = '/vnfpkgm/v1/vnf_packages';
export const V2 = '/vnfpkgm/v2/vnf_packages';
export const V2_HEADERS = { Version: '2.1.0' };

export const sample = (file: string): Buffer => readFileSync(join(SAMPLES_DIR, file));

export async function createPkg(
  base: string,
  headers: Record<string, string> = {},
  body: object = {},
): Promise<PkgInfo> {
  const res = await http<PkgInfo>(base, 'POST', V1, { body, headers });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body;
}

export async function putZip(base: string, id: string, zip: Buffer, headers: Record<string, string> = {}) {
  return http(base, 'PUT', `${V1}/${id}/package_content`, {
    body: zip,
    headers: { 'content-type': 'application/zip', accept: 'application/zip', ...headers },
  });
}

/**
 * Polls until the package leaves UPLOADING/PROCESSING; returns its v2 representation (ERROR:
 * onboarding failed, the package is CREATED again with the reason in onboardingFailureDetails).
 */
export async function waitSettled(
  base: string,
  id: string,
  headers: Record<string, string> = {},
): Promise<PkgInfo> {
  for (let i = 0; i < 600; i++) {
    const res = await http<PkgInfo>(base, 'GET', `${V2}/${id}`, { headers: { ...V2_HEADERS, ...headers } });
    if (res.status !== 200) throw new Error(`show: ${res.status} ${res.text}`);
    if (SETTLED.includes(res.body.onboardingState)) return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`package ${id} did not settle`);
}

/** /vnfpkgm/v2 states in which onboarding is over (CREATED: never uploaded). */
export const SETTLED = ['CREATED', 'ERROR', 'ONBOARDED'];

/** create + PUT + wait. */
export async function onboard(
  base: string,
  zip: Buffer,
  headers: Record<string, string> = {},
): Promise<PkgInfo> {
  const pkg = await createPkg(base, headers);
  const put = await putZip(base, pkg.id, zip, headers);
  if (put.status !== 202) throw new Error(`upload: ${put.status} ${put.text}`);
  return waitSettled(base, pkg.id, headers);
}

/** Starts like a zip (so the upload is accepted) but is none: onboarding fails. */
export const NOT_A_CSAR = Buffer.concat([
  Buffer.from([0x50, 0x4b, 0x03, 0x04]),
  Buffer.from('not a CSAR at all'),
]);

/** The sample used when any valid package will do (small, with artifacts). */
export const SMALL_SAMPLE = 'functional2.zip';

export const CMS_BLOCK = '-----BEGIN CMS-----\nMIIBAAAA\n-----END CMS-----\n';

/**
 * A valid package whose VNFD is one file (no package imports), with the given vnfdId; with
 * `manifest`, a single.mf listing it and carrying a (fake) CMS block — onboard it with
 * packages.signaturePolicy 'off'.
 */
export async function singleFilePackage(
  vnfdId: string,
  options: { manifest?: boolean; signed?: boolean } = {},
): Promise<Buffer> {
  const yazl = (await import('yazl')).default;
  const { createHash } = await import('node:crypto');
  const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
  const text = readFileSync(new URL('./single-vnfd.yaml', import.meta.url), 'utf8').replace(
    'VNFD_ID',
    vnfdId,
  );
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(text), 'single.yaml');
  if (options.manifest || options.signed) {
    const mf = [
      'metadata:',
      '  vnf_provider_id: Bosun',
      '  vnf_product_name: Single',
      '  vnf_release_date_time: 2026-01-01T00:00:00+00:00',
      "  vnf_package_version: '1.0'",
      '',
      'Source: single.yaml',
      'Algorithm: SHA-256',
      `Hash: ${sha256(text)}`,
      ...(options.signed ? ['Signature: single.yaml.sig.cms'] : []),
      '',
    ];
    if (options.signed) {
      // Per-artifact signatures (SOL004 option 2) and the root certificate; the tests that
      // use them run with the signature policy off, so the bytes only have to be served back.
      mf.push('Source: Scripts/run.sh', 'Algorithm: SHA-256', `Hash: ${sha256(SIGNED_SCRIPT)}`);
      mf.push('Signature: Scripts/run.sh.sig.cms', '');
      zip.addBuffer(Buffer.from(SIGNED_SCRIPT), 'Scripts/run.sh');
      zip.addBuffer(Buffer.from([0x30, 0x82, 0x00, 0xff, 0x01]), 'Scripts/run.sh.sig.cms');
      zip.addBuffer(Buffer.from([0x30, 0x82, 0x00, 0xee, 0x02]), 'single.yaml.sig.cms');
      zip.addBuffer(
        Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'),
        'single.cert',
      );
    }
    mf.push(CMS_BLOCK);
    zip.addBuffer(Buffer.from(mf.join('\n')), 'single.mf');
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The artifact of singleFilePackage({ signed: true }). */
export const SIGNED_SCRIPT = '#!/bin/sh\necho run\n';
