/**
 * Request schemas by API version of /vnflcm/v1 (1.3.0, SOL002/SOL003 v2.6.1). Adding a minor
 * version is adding its file and a line here (and choosing by the Version header where they differ).
 */
import { REQUESTS_1_3_0 } from './1.3.0.ts';

export const REQUESTS_BY_VERSION = { '1.3.0': REQUESTS_1_3_0 } as const;

export const REQUESTS = REQUESTS_BY_VERSION['1.3.0'];
