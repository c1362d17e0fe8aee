/**
 * The /vnflcm/v1 lists: the v2.6.1 vocabulary of filterable attributes (scalar ones pushed to
 * SQL), the complex attributes SOL003 excludes by default, and the row → representation mapping.
 * Same engine as /vnflcm/v2 over the v1 tables; the attributes are those of the v2.6.1
 * representations (vimConnectionInfo entries, vnfPkgId; no vnfcInfo, zoneId or CHANGE_VNFPKG).
 */
import type { FastifyRequest } from 'fastify';
import { OPERATIONS } from '../../../../lcm/model.ts';
import { instanceFromRow, type LcmStore } from '../../../../lcm/store.ts';
import type { VnfInstancesTable } from '../../../../store/db/tables.ts';
import type { AttributeMap } from '../../../sol013/attributes.ts';
import type { ListResource } from '../../../sol013/list-query.ts';
import { OP_OCC_ATTRIBUTES, opOccListOf } from '../v2/lists.ts';
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

/** v2.6.1 operations: all but CHANGE_VNFPKG (which v1 does not have). */
const OPERATIONS_V1 = OPERATIONS.filter((o) => o !== 'CHANGE_VNFPKG');

/** v3.3.1-only attributes the v2.6.1 op occ does not have. */
const V3_ONLY = /^resourceChanges\/(affectedVnfcs\/zoneId|affectedExtLinkPorts\/)/;

export const OP_OCC_ATTRIBUTES_V1: AttributeMap = {
  ...Object.fromEntries(Object.entries(OP_OCC_ATTRIBUTES).filter(([path]) => !V3_ONLY.test(path))),
  operation: { type: 'enum', values: OPERATIONS_V1, column: 'operation' },
};

export function opOccListV1(store: LcmStore) {
  return opOccListOf<VnfLcmOpOccV1>(store, OP_OCC_ATTRIBUTES_V1, toOpOccV1);
}
