/**
 * What one LCM API major declares to the engine: how its lifecycle change notifications differ.
 * The engine writes notifications in the transaction of the change, so their per-major shape
 * lives here, below the routes; the API representations live with the routes
 * (src/http/routes/vnflcm/<major>/).
 */

import type { LcmOperationState } from '../../notify/lcm-filter.ts';
import type { OpOccRecord } from '../model.ts';

/**
 * What the operation changed so far, and its error, as the op occ representation of a major
 * shows them. Changes are sent with RESULT notifications only, and not to SHORT subscribers.
 */
export interface LcmResultDetails {
  affectedVnfcs?: unknown[];
  affectedVirtualLinks?: unknown[];
  /** v3.3.1 only. */
  affectedExtLinkPorts?: unknown[];
  affectedVirtualStorages?: unknown[];
  changedInfo?: Record<string, unknown>;
  changedExtConnectivity?: unknown[];
  /** v3.3.1 only. */
  modificationsTriggeredByVnfPkgChange?: Record<string, unknown>;
  /** ProblemDetails of the failure. */
  error?: Record<string, unknown>;
}

export interface LcmMajorShapes {
  /** The resource changes its VnfLcmOperationOccurrenceNotification carries. */
  readonly changeFields: readonly (keyof LcmResultDetails)[];
  /** The states whose notification carries `error`. */
  readonly errorStates: readonly LcmOperationState[];
  /** Whether its subscriptions choose a verbosity (SHORT leaves the changes out). */
  readonly verbosity: boolean;
  /** What the op occ changed, in this major's shapes. */
  details(opOcc: OpOccRecord): LcmResultDetails;
}

/** The changes and error of an op occ, in the shapes `shown` gives them. */
export function resultDetails(
  opOcc: OpOccRecord,
  shown: {
    changes(c: NonNullable<OpOccRecord['resourceChanges']>): Record<string, unknown[]>;
    changedInfo(c: NonNullable<OpOccRecord['changedInfo']>): Record<string, unknown>;
    changedExtConnectivity(c: NonNullable<OpOccRecord['changedExtConnectivity']>): unknown[];
  },
): LcmResultDetails {
  const out: LcmResultDetails = {};
  if (opOcc.resourceChanges) {
    for (const [name, list] of Object.entries(shown.changes(opOcc.resourceChanges))) {
      if (list.length) out[name as 'affectedVnfcs'] = list;
    }
  }
  if (opOcc.changedInfo && Object.keys(opOcc.changedInfo).length) {
    out.changedInfo = shown.changedInfo(opOcc.changedInfo);
  }
  if (opOcc.changedExtConnectivity?.length) {
    out.changedExtConnectivity = shown.changedExtConnectivity(opOcc.changedExtConnectivity);
  }
  if (opOcc.error) out.error = opOcc.error;
  return out;
}
