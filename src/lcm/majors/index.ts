/**
 * The LCM API majors: one declaration each (its notification shapes, ./v1.ts and ./v2.ts). A new
 * major is a row here, its tables (store/db/migrations), its store (../store.ts) and its routes
 * (src/http/routes/vnflcm/<major>/); the last two are tables keyed by LcmMajor, so the type
 * checker asks for them.
 */

import type { LcmMajorShapes } from './major.ts';
import { v1 } from './v1.ts';
import { v2 } from './v2.ts';

export const LCM_MAJORS = { v1, v2 } as const satisfies Record<string, LcmMajorShapes>;

export type LcmMajor = keyof typeof LCM_MAJORS;

export const isLcmMajor = (major: string): major is LcmMajor => Object.hasOwn(LCM_MAJORS, major);
