/** The filterable attributes of the /vnflcm/v2 lists: the shared ones and SOL003 v3.3.1's own. */

import type { AttributeMap } from '../../../../sol/attributes.ts';
import { OPERATIONS } from '../../../../sol/lcm-operations.ts';
import { change, INSTANCE_ATTRIBUTES, OP_OCC_ATTRIBUTES } from '../lists.ts';

export const INSTANCE_ATTRIBUTES_V2: AttributeMap = {
  ...INSTANCE_ATTRIBUTES,
  vimConnectionInfo: { type: 'keyValue' },
  'instantiatedVnfInfo/maxScaleLevels/aspectId': { type: 'string' },
  'instantiatedVnfInfo/maxScaleLevels/scaleLevel': { type: 'number' },
  'instantiatedVnfInfo/vnfcResourceInfo/zoneId': { type: 'string' },
  'instantiatedVnfInfo/vnfcInfo/id': { type: 'string' },
  'instantiatedVnfInfo/vnfcInfo/vduId': { type: 'string' },
  'instantiatedVnfInfo/vnfcInfo/vnfcResourceInfoId': { type: 'string' },
  'instantiatedVnfInfo/vnfcInfo/vnfcState': { type: 'enum', values: ['STARTED', 'STOPPED'] },
  'instantiatedVnfInfo/metadata': { type: 'keyValue' },
};

export const OP_OCC_ATTRIBUTES_V2: AttributeMap = {
  ...OP_OCC_ATTRIBUTES,
  operation: { type: 'enum', values: OPERATIONS, column: 'operation' },
  'resourceChanges/affectedVnfcs/zoneId': { type: 'string' },
  ...change('resourceChanges/affectedExtLinkPorts'),
};
