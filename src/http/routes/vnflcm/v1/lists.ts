/**
 * The filterable attributes of the /vnflcm/v1 lists: the shared ones and SOL003 v2.6.1's own
 * (vimConnectionInfo entries, vnfPkgId, extVirtualLinkInfo; no vnfcInfo, zoneId or CHANGE_VNFPKG).
 */

import type { AttributeMap } from '../../../../sol/attributes.ts';
import { OPERATIONS } from '../../../../sol/lcm-operations.ts';
import { handle, INSTANCE_ATTRIBUTES, OP_OCC_ATTRIBUTES } from '../lists.ts';

export const INSTANCE_ATTRIBUTES_V1: AttributeMap = {
  ...INSTANCE_ATTRIBUTES,
  vnfPkgId: { type: 'string', column: 'vnf_pkg_id' },
  'vimConnectionInfo/id': { type: 'string' },
  'vimConnectionInfo/vimId': { type: 'string' },
  'vimConnectionInfo/vimType': { type: 'string' },
  'vimConnectionInfo/interfaceInfo': { type: 'keyValue' },
  'vimConnectionInfo/extra': { type: 'keyValue' },
  'instantiatedVnfInfo/extVirtualLinkInfo/id': { type: 'string' },
  ...handle('instantiatedVnfInfo/extVirtualLinkInfo/resourceHandle'),
};

export const OP_OCC_ATTRIBUTES_V1: AttributeMap = {
  ...OP_OCC_ATTRIBUTES,
  operation: { type: 'enum', values: OPERATIONS.filter((o) => o !== 'CHANGE_VNFPKG'), column: 'operation' },
};
