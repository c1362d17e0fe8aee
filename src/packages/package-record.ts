/**
 * A VNF package as the services see it (JSON columns decoded), and the row codec. One place
 * knows the column names.
 */
import type { ProblemDetails } from '../sol/problem.ts';
import type { VnfPackagesTable } from '../store/db/tables.ts';
import type { Executor } from '../store/db/transaction.ts';
import type { AdditionalArtifact, SoftwareImage, Vnfd } from '../vnfd/model/vnfd.ts';
import type { OnboardingState, OperationalState, UsageState } from './states.ts';

export interface StoredImage extends SoftwareImage {
  createdAt: string;
}

export interface PackageRecord {
  id: string;
  projectId: string;
  onboardingState: OnboardingState;
  operationalState: OperationalState;
  usageState: UsageState;
  userDefinedData: Record<string, unknown>;
  checksum?: { algorithm: string; hash: string };
  vnfdId?: string;
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
  softwareImages: StoredImage[];
  additionalArtifacts: AdditionalArtifact[];
  entryDefinitions?: string;
  vnfdModel?: Vnfd;
  /** { artifacts: paths served by /artifacts, vnfdFiles: the VNFD's package files, toscaMeta?: path } */
  files?: PackageFileIndex;
  manifestFile?: string;
  signingCertificate?: string;
  onboardingFailure?: ProblemDetails;
  packageSize?: number;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface PackageFileIndex {
  artifacts: string[];
  vnfdFiles: string[];
  toscaMeta?: string;
  /** SOL004 security option: 1 = signed manifest, 2 = signed zip. */
  securityOption?: 'OPTION_1' | 'OPTION_2';
  /** Package file → its signature file (SOL004 per-artifact signatures), served on include_signatures. */
  signatures?: Record<string, string>;
  vnfmInfo?: string[];
}

const json = <T>(text: string | null): T | undefined => (text == null ? undefined : (JSON.parse(text) as T));
const opt = (v: string | null) => v ?? undefined;

export function fromRow(row: VnfPackagesTable): PackageRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    onboardingState: row.onboarding_state as OnboardingState,
    operationalState: row.operational_state as OperationalState,
    usageState: row.usage_state as UsageState,
    userDefinedData: JSON.parse(row.user_defined_data),
    checksum: json(row.checksum),
    vnfdId: opt(row.vnfd_id),
    vnfProvider: opt(row.vnf_provider),
    vnfProductName: opt(row.vnf_product_name),
    vnfSoftwareVersion: opt(row.vnf_software_version),
    vnfdVersion: opt(row.vnfd_version),
    softwareImages: json(row.software_images) ?? [],
    additionalArtifacts: json(row.additional_artifacts) ?? [],
    entryDefinitions: opt(row.entry_definitions),
    files: json(row.artifact_paths),
    manifestFile: opt(row.manifest_file),
    signingCertificate: opt(row.signing_certificate),
    onboardingFailure: json(row.onboarding_failure),
    packageSize: row.package_size == null ? undefined : Number(row.package_size),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

/** The package, without the (large) VNFD model unless asked. */
export async function findPackage(
  db: Executor,
  id: string,
  options: { model?: boolean } = {},
): Promise<PackageRecord | undefined> {
  const row = await db.selectFrom('vnf_packages').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const record = fromRow(row);
  if (options.model && row.vnfd_model) record.vnfdModel = JSON.parse(row.vnfd_model);
  return record;
}

/** The blob key of a package's zip. */
export const packageBlobKey = (id: string) => `packages/${id}/package.zip`;

export const nowIso = () => new Date().toISOString();
