/**
 * The /vnflcm/v1 lists: the v2.6.1 vocabulary of filterable attributes (scalar ones pushed to
 * SQL), the complex attributes SOL003 excludes by default, and the row → representation mapping.
 * Same engine as /vnflcm/v2 over the v1 tables; the attributes are those of the v2.6.1
 * representations (vimConnectionInfo entries, vnfPkgId; no vnfcInfo, zoneId or CHANGE_VNFPKG).
 */
import type { FastifyRequest } from 'fastify';
import { OPERATION_STATES, OPERATIONS } from '../../../../lcm/model.ts';
import type { Params } from '../../../../lcm/operation-def.ts';
import { parseProgress } from '../../../../lcm/progress.ts';
import { instanceFromRow, type LcmStore, OP_OCC_LIST_COLUMNS, opOccFromRow } from '../../../../lcm/store.ts';
import type { LcmOpOccsTable, VnfInstancesTable } from '../../../../store/db/tables.ts';
import type { AttributeMap } from '../../../sol013/attributes.ts';
import type { ListResource } from '../../../sol013/list-query.ts';
import { toInstanceV1, toOpOccV1, type VnfInstanceV1, type VnfLcmOpOccV1 } from './views.ts';

const handle = (prefix: string): AttributeMap => ({
  [`${prefix}/resourceId`]: { type: 'string' },
  [`${prefix}/vimConnectionId`]: { type: 'string' },
  [`${prefix}/vimLevelResourceType`]: { type: 'string' },
});

export const INSTANCE_ATTRIBUTES_V1: AttributeMap = {
  id: { type: 'uuid', column: 'id' },
  vnfInstanceName: { type: 'string', column: 'vnf_instance_name' },
  vnfInstanceDescription: { type: 'string', column: 'vnf_instance_description' },
  vnfdId: { type: 'string', column: 'vnfd_id' },
  vnfProvider: { type: 'string', column: 'vnf_provider' },
  vnfProductName: { type: 'string', column: 'vnf_product_name' },
  vnfSoftwareVersion: { type: 'string', column: 'vnf_software_version' },
  vnfdVersion: { type: 'string', column: 'vnfd_version' },
  vnfPkgId: { type: 'string', column: 'vnf_pkg_id' },
  instantiationState: {
    type: 'enum',
    values: ['NOT_INSTANTIATED', 'INSTANTIATED'],
    column: 'instantiation_state',
  },
  vnfConfigurableProperties: { type: 'keyValue' },
  metadata: { type: 'keyValue' },
  extensions: { type: 'keyValue' },
  'vimConnectionInfo/id': { type: 'string' },
  'vimConnectionInfo/vimId': { type: 'string' },
  'vimConnectionInfo/vimType': { type: 'string' },
  'vimConnectionInfo/interfaceInfo': { type: 'keyValue' },
  'vimConnectionInfo/extra': { type: 'keyValue' },
  'instantiatedVnfInfo/flavourId': { type: 'string' },
  'instantiatedVnfInfo/vnfState': { type: 'enum', values: ['STARTED', 'STOPPED'] },
  'instantiatedVnfInfo/scaleStatus/aspectId': { type: 'string' },
  'instantiatedVnfInfo/scaleStatus/scaleLevel': { type: 'number' },
  'instantiatedVnfInfo/extCpInfo/id': { type: 'string' },
  'instantiatedVnfInfo/extCpInfo/cpdId': { type: 'string' },
  'instantiatedVnfInfo/extVirtualLinkInfo/id': { type: 'string' },
  ...handle('instantiatedVnfInfo/extVirtualLinkInfo/resourceHandle'),
  'instantiatedVnfInfo/vnfcResourceInfo/id': { type: 'string' },
  'instantiatedVnfInfo/vnfcResourceInfo/vduId': { type: 'string' },
  ...handle('instantiatedVnfInfo/vnfcResourceInfo/computeResource'),
  'instantiatedVnfInfo/vnfcResourceInfo/metadata': { type: 'keyValue' },
  'instantiatedVnfInfo/vnfVirtualLinkResourceInfo/id': { type: 'string' },
  'instantiatedVnfInfo/vnfVirtualLinkResourceInfo/vnfVirtualLinkDescId': { type: 'string' },
  ...handle('instantiatedVnfInfo/vnfVirtualLinkResourceInfo/networkResource'),
  'instantiatedVnfInfo/virtualStorageResourceInfo/id': { type: 'string' },
  'instantiatedVnfInfo/virtualStorageResourceInfo/virtualStorageDescId': { type: 'string' },
  ...handle('instantiatedVnfInfo/virtualStorageResourceInfo/storageResource'),
  'instantiatedVnfInfo/localizationLanguage': { type: 'string' },
};

const INSTANCE_EXCLUDED = [
  'vnfConfigurableProperties',
  'vimConnectionInfo',
  'instantiatedVnfInfo',
  'metadata',
  'extensions',
] as const;

export function instanceListV1(store: LcmStore): ListResource<VnfInstancesTable, VnfInstanceV1> {
  return {
    name: `vnf_instances_${store.major}`,
    attributes: INSTANCE_ATTRIBUTES_V1,
    defaultExcluded: INSTANCE_EXCLUDED,
    selectors: true,
    select(db, project) {
      const q = db.selectFrom(store.instances).selectAll();
      return project === undefined ? q : q.where('project_id', '=', project);
    },
    keyColumn: 'id',
    keyOf: (row) => row.id,
    toView: (row, request: FastifyRequest) => toInstanceV1(instanceFromRow(row), request),
  };
}

const change = (prefix: string): AttributeMap => ({
  [`${prefix}/id`]: { type: 'string' },
  [`${prefix}/changeType`]: { type: 'string' },
  [`${prefix}/metadata`]: { type: 'keyValue' },
});

/** v2.6.1 operations: all but CHANGE_VNFPKG (which v1 does not have). */
const OPERATIONS_V1 = OPERATIONS.filter((o) => o !== 'CHANGE_VNFPKG');

export const OP_OCC_ATTRIBUTES_V1: AttributeMap = {
  id: { type: 'uuid', column: 'id' },
  operationState: { type: 'enum', values: OPERATION_STATES, column: 'operation_state' },
  stateEnteredTime: { type: 'datetime', column: 'state_entered_time' },
  startTime: { type: 'datetime', column: 'start_time' },
  vnfInstanceId: { type: 'uuid', column: 'vnf_instance_id' },
  grantId: { type: 'string', column: 'grant_id' },
  operation: { type: 'enum', values: OPERATIONS_V1, column: 'operation' },
  isAutomaticInvocation: { type: 'boolean', column: 'is_automatic_invocation' },
  isCancelPending: { type: 'boolean', column: 'is_cancel_pending' },
  cancelMode: { type: 'enum', values: ['GRACEFUL', 'FORCEFUL'], column: 'cancel_mode' },
  operationParams: { type: 'keyValue' },
  'error/status': { type: 'number' },
  'error/title': { type: 'string' },
  'error/detail': { type: 'string' },
  ...change('resourceChanges/affectedVnfcs'),
  'resourceChanges/affectedVnfcs/vduId': { type: 'string' },
  ...handle('resourceChanges/affectedVnfcs/computeResource'),
  ...change('resourceChanges/affectedVirtualLinks'),
  'resourceChanges/affectedVirtualLinks/vnfVirtualLinkDescId': { type: 'string' },
  ...change('resourceChanges/affectedVirtualStorages'),
  'resourceChanges/affectedVirtualStorages/virtualStorageDescId': { type: 'string' },
  'changedInfo/vnfInstanceName': { type: 'string' },
  'changedInfo/vnfInstanceDescription': { type: 'string' },
  'changedInfo/vnfdId': { type: 'string' },
  'changedInfo/metadata': { type: 'keyValue' },
  'changedInfo/extensions': { type: 'keyValue' },
  'changedInfo/vnfConfigurableProperties': { type: 'keyValue' },
  'changedExtConnectivity/id': { type: 'string' },
};

const OP_OCC_EXCLUDED = [
  'operationParams',
  'error',
  'resourceChanges',
  'changedInfo',
  'changedExtConnectivity',
] as const;

type OpOccListRow = Pick<LcmOpOccsTable, (typeof OP_OCC_LIST_COLUMNS)[number] | 'progress'>;

/** The accept-time facts of a listed op occ (for its rollback link), read cheaply. */
function factsOf(row: OpOccListRow): Params {
  if (row.operation_state !== 'FAILED_TEMP') return {};
  return (parseProgress(row.progress).outputs.accept as Params | undefined) ?? {};
}

export function opOccListV1(store: LcmStore): ListResource<OpOccListRow, VnfLcmOpOccV1> {
  return {
    name: `vnf_lcm_op_occs_${store.major}`,
    attributes: OP_OCC_ATTRIBUTES_V1,
    defaultExcluded: OP_OCC_EXCLUDED,
    selectors: true,
    select(db, project) {
      const q = db.selectFrom(store.opOccs).select([...OP_OCC_LIST_COLUMNS, 'progress']);
      return project === undefined ? q : q.where('project_id', '=', project);
    },
    keyColumn: 'id',
    keyOf: (row) => row.id,
    toView: (row, request) => toOpOccV1(opOccFromRow(row as LcmOpOccsTable), request, factsOf(row)),
  };
}
