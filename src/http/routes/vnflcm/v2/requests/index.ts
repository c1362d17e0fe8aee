/**
 * Request schemas by API version of /vnflcm/v2. The routes validate with the newest; adding
 * 2.1.x is adding its file and a line here (and choosing by the Version header where they differ).
 */
import { REQUESTS_2_0_0 } from './2.0.0.ts';

export const REQUESTS_BY_VERSION = { '2.0.0': REQUESTS_2_0_0 } as const;

export const REQUESTS = REQUESTS_BY_VERSION['2.0.0'];
