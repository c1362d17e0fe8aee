/**
 * VnfPkgInfo per API major: v1 = SOL005 v2.6.1 (Tacker), v2 = SOL005 v3.3.1. Both read the
 * same PackageRecord; v2 adds the security option and VNFM info.
 *
 * A failed onboarding is stored as CREATED with its reason, so that a corrected upload is
 * accepted as in Tacker. v2 shows it as SOL005 v3.3.1 does: onboardingState ERROR with
 * onboardingFailureDetails. v1 keeps CREATED (v2.6.1 has no ERROR state, and Tacker's client
 * knows none) and carries the same onboardingFailureDetails as an extra attribute, which the
 * v2.6.1 schema allows, so a failed package is never indistinguishable from a new one.
 */
import type { FastifyRequest } from 'fastify';
import type { PackageRecord } from '../../../packages/package-record.ts';
import type { ProblemDetails } from '../../../sol/problem.ts';
import { absoluteUrl } from '../../sol013/links.ts';

type Link = { href: string };

export interface VnfPkgInfoV1 {
  id: string;
  vnfdId?: string;
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
  checksum?: { algorithm: string; hash: string };
  softwareImages: Record<string, unknown>[];
  additionalArtifacts: Record<string, unknown>[];
  onboardingState: string;
  operationalState: string;
  usageState: string;
  userDefinedData: Record<string, unknown>;
  onboardingFailureDetails?: ProblemDetails;
  _links: { self: Link; vnfd?: Link; packageContent: Link };
}

export interface VnfPkgInfoV2 extends VnfPkgInfoV1 {
  packageSecurityOption: 'OPTION_1' | 'OPTION_2';
  signingCertificate?: string;
  vnfmInfo: string[];
}

/** Why the last onboarding failed, while the package waits for a new upload. */
export function failureOf(record: PackageRecord): ProblemDetails | undefined {
  return record.onboardingState === 'CREATED' ? record.onboardingFailure : undefined;
}

function image(img: PackageRecord['softwareImages'][number], v2: boolean): Record<string, unknown> {
  return {
    id: img.id,
    name: img.name,
    provider: img.provider,
    version: img.version,
    checksum: img.checksum,
    ...(v2 ? { isEncrypted: false } : {}),
    containerFormat: img.containerFormat.toUpperCase(),
    diskFormat: img.diskFormat.toUpperCase(),
    createdAt: img.createdAt,
    minDisk: img.minDisk,
    minRam: img.minRam,
    size: img.size,
    imagePath: img.imagePath,
  };
}

function base(record: PackageRecord, request: FastifyRequest, prefix: string, v2: boolean): VnfPkgInfoV1 {
  const self = `${prefix}/vnf_packages/${record.id}`;
  const view: VnfPkgInfoV1 = {
    id: record.id,
    vnfdId: record.vnfdId,
    vnfProvider: record.vnfProvider,
    vnfProductName: record.vnfProductName,
    vnfSoftwareVersion: record.vnfSoftwareVersion,
    vnfdVersion: record.vnfdVersion,
    checksum: record.checksum,
    softwareImages: record.softwareImages.map((img) => image(img, v2)),
    additionalArtifacts: record.additionalArtifacts.map((a) => ({
      artifactPath: a.artifactPath,
      checksum: a.checksum,
      ...(v2 ? { isEncrypted: false } : {}),
    })),
    onboardingState: record.onboardingState,
    operationalState: record.operationalState,
    usageState: record.usageState,
    userDefinedData: record.userDefinedData,
    _links: {
      self: { href: absoluteUrl(request, self) },
      ...(record.onboardingState === 'ONBOARDED'
        ? { vnfd: { href: absoluteUrl(request, `${self}/vnfd`) } }
        : {}),
      packageContent: { href: absoluteUrl(request, `${self}/package_content`) },
    },
  };
  const failure = failureOf(record);
  if (failure) view.onboardingFailureDetails = failure;
  // Absent, not null, until onboarded (the schemas do not allow null).
  for (const key of [
    'vnfdId',
    'vnfProvider',
    'vnfProductName',
    'vnfSoftwareVersion',
    'vnfdVersion',
    'checksum',
  ] as const) {
    if (view[key] === undefined) delete view[key];
  }
  return view;
}

export function toV1(record: PackageRecord, request: FastifyRequest): VnfPkgInfoV1 {
  return base(record, request, '/vnfpkgm/v1', false);
}

export function toV2(record: PackageRecord, request: FastifyRequest): VnfPkgInfoV2 {
  const view: VnfPkgInfoV2 = {
    ...base(record, request, '/vnfpkgm/v2', true),
    packageSecurityOption: record.files?.securityOption ?? 'OPTION_1',
    vnfmInfo: record.files?.vnfmInfo ?? [],
  };
  if (record.signingCertificate) view.signingCertificate = record.signingCertificate;
  if (view.onboardingFailureDetails) view.onboardingState = 'ERROR';
  return view;
}
