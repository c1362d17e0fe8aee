/**
 * The vnf_packages list on both majors: filters over every VnfPkgInfo attribute (scalar ones
 * pushed to SQL, the nested ones evaluated on the representation), selectors with the
 * complex attributes excluded by default, paging.
 */
import type { FastifyRequest } from 'fastify';
import { fromRow } from '../../../packages/package-record.ts';
import { ONBOARDING_STATES, OPERATIONAL_STATES, USAGE_STATES } from '../../../packages/states.ts';
import type { AttributeMap } from '../../../sol/attributes.ts';
import type { VnfPackagesTable } from '../../../store/db/tables.ts';
import type { ListResource } from '../../sol013/list-query.ts';
import { toV1, toV2, type VnfPkgInfoV1, type VnfPkgInfoV2 } from './views.ts';

const checksum = (prefix: string): AttributeMap => ({
  [`${prefix}checksum/algorithm`]: { type: 'string' },
  [`${prefix}checksum/hash`]: { type: 'string' },
});

export const PACKAGE_ATTRIBUTES: AttributeMap = {
  id: { type: 'uuid', column: 'id' },
  vnfdId: { type: 'string', column: 'vnfd_id' },
  vnfProvider: { type: 'string', column: 'vnf_provider' },
  vnfProductName: { type: 'string', column: 'vnf_product_name' },
  vnfSoftwareVersion: { type: 'string', column: 'vnf_software_version' },
  vnfdVersion: { type: 'string', column: 'vnfd_version' },
  onboardingState: { type: 'enum', values: ONBOARDING_STATES, column: 'onboarding_state' },
  operationalState: { type: 'enum', values: OPERATIONAL_STATES, column: 'operational_state' },
  usageState: { type: 'enum', values: USAGE_STATES, column: 'usage_state' },
  userDefinedData: { type: 'keyValue' },
  ...checksum(''),
  'softwareImages/id': { type: 'string' },
  'softwareImages/name': { type: 'string' },
  'softwareImages/provider': { type: 'string' },
  'softwareImages/version': { type: 'string' },
  ...checksum('softwareImages/'),
  'softwareImages/containerFormat': { type: 'string' },
  'softwareImages/diskFormat': { type: 'string' },
  'softwareImages/createdAt': { type: 'datetime' },
  'softwareImages/minDisk': { type: 'number' },
  'softwareImages/minRam': { type: 'number' },
  'softwareImages/size': { type: 'number' },
  'softwareImages/userMetadata': { type: 'keyValue' },
  'softwareImages/imagePath': { type: 'string' },
  'additionalArtifacts/artifactPath': { type: 'string' },
  ...checksum('additionalArtifacts/'),
  'additionalArtifacts/metadata': { type: 'keyValue' },
  'onboardingFailureDetails/status': { type: 'number' },
  'onboardingFailureDetails/title': { type: 'string' },
  'onboardingFailureDetails/detail': { type: 'string' },
};

const V2_ATTRIBUTES: AttributeMap = {
  ...PACKAGE_ATTRIBUTES,
  // ERROR is a stored CREATED with a failure (views.ts): matched on the representation.
  onboardingState: { type: 'enum', values: [...ONBOARDING_STATES, 'ERROR'] },
  packageSecurityOption: { type: 'enum', values: ['OPTION_1', 'OPTION_2'] },
  signingCertificate: { type: 'string' },
  vnfmInfo: { type: 'string' },
  'softwareImages/isEncrypted': { type: 'boolean' },
  'additionalArtifacts/isEncrypted': { type: 'boolean' },
};

const DEFAULT_EXCLUDED = ['softwareImages', 'additionalArtifacts', 'userDefinedData', 'checksum'] as const;

function resource<View extends object>(
  attributes: AttributeMap,
  toView: (row: VnfPackagesTable, request: FastifyRequest) => View,
): ListResource<VnfPackagesTable, View> {
  return {
    name: 'vnf_packages',
    attributes,
    defaultExcluded: DEFAULT_EXCLUDED,
    selectors: true,
    select(db, project) {
      // Everything but the VNFD model, which lists never show.
      const q = db.selectFrom('vnf_packages').select(COLUMNS).$castTo<VnfPackagesTable>();
      return project === undefined ? q : q.where('project_id', '=', project);
    },
    keyColumn: 'id',
    keyOf: (row) => row.id,
    toView,
  };
}

const COLUMNS: (keyof VnfPackagesTable)[] = [
  'id',
  'project_id',
  'onboarding_state',
  'operational_state',
  'usage_state',
  'user_defined_data',
  'checksum',
  'vnfd_id',
  'vnf_provider',
  'vnf_product_name',
  'vnf_software_version',
  'vnfd_version',
  'software_images',
  'additional_artifacts',
  'entry_definitions',
  'artifact_paths',
  'manifest_file',
  'signing_certificate',
  'onboarding_failure',
  'package_size',
  'job_state',
  'lease_owner',
  'lease_until',
  'attempts',
  'upload_source',
  'created_at',
  'updated_at',
  'version',
];

export const packageListV1 = resource<VnfPkgInfoV1>(PACKAGE_ATTRIBUTES, (row, request) =>
  toV1(fromRow(row), request),
);
export const packageListV2 = resource<VnfPkgInfoV2>(V2_ATTRIBUTES, (row, request) =>
  toV2(fromRow(row), request),
);
