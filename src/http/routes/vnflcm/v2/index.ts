/**
 * /vnflcm/v2 (SOL002/SOL003 v3.3.1, API version 2.0.0): VNF instances and LCM operation
 * occurrences as the engine has them — requests are already in the engine's shapes.
 */
import { LCM_V2 } from '../../../../lcm/store.ts';
import { lcmApi } from '../api.ts';
import { INSTANCE_ATTRIBUTES_V2, OP_OCC_ATTRIBUTES_V2 } from './lists.ts';
import { REQUESTS } from './requests/index.ts';
import { viewsV2 } from './views.ts';

export const LCM_API_V2 = lcmApi({
  major: 'v2',
  store: LCM_V2,
  requests: REQUESTS,
  views: viewsV2,
  instanceAttributes: INSTANCE_ATTRIBUTES_V2,
  opOccAttributes: OP_OCC_ATTRIBUTES_V2,
  toEngine: (body) => body,
  checkCreate: async () => {},
  modifyRequest: async (_svc, _instance, body) => body,
  refusedRollbackStatus: 422,
});
