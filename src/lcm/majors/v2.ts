/** LCM API major v2 (SOL002/SOL003 v3.3.1): the engine's own shapes, with verbosity. */

import { type LcmMajorShapes, resultDetails } from './major.ts';

export const v2: LcmMajorShapes = {
  changeFields: [
    'affectedVnfcs',
    'affectedVirtualLinks',
    'affectedExtLinkPorts',
    'affectedVirtualStorages',
    'changedInfo',
    'changedExtConnectivity',
    'modificationsTriggeredByVnfPkgChange',
  ],
  errorStates: ['FAILED_TEMP', 'FAILED', 'ROLLED_BACK'],
  verbosity: true,
  details: (opOcc) =>
    resultDetails(opOcc, {
      changes: (c) => ({
        affectedVnfcs: c.affectedVnfcs,
        affectedVirtualLinks: c.affectedVirtualLinks,
        affectedExtLinkPorts: c.affectedExtLinkPorts,
        affectedVirtualStorages: c.affectedVirtualStorages,
      }),
      changedInfo: (c) => c as Record<string, unknown>,
      changedExtConnectivity: (c) => c,
    }),
};
