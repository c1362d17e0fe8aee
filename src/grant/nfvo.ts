/**
 * The granting seam: the LCM engine asks an NFVO for a Grant before it changes resources. The
 * local NFVO (local-nfvo.ts) answers in-process; the external one (external-nfvo.ts) asks an
 * NFVO over SOL003 /grant/v1.
 */
import { ApiError } from '../sol/problem.ts';
import type { Flavour } from '../vnfd/model/vnfd.ts';
import type { Grant, GrantRequest } from './types.ts';

export interface GrantContext {
  project: string;
  /** The VIM the instance uses or will use: its key in vimConnectionInfo, id and type. */
  vim: { connectionId: string; vimId?: string; vimType: string };
  /** Availability zones of that VIM (names), as the NFVO may place resources in them. */
  zones: readonly string[];
  /** Zones of the VNFCs that already exist (VIM resource id → zone), for anti-affinity. */
  existingZones: Readonly<Record<string, string>>;
  flavour: Flavour;
  /** Base of the Grant's `_links.self` (path-absolute). */
  grantsPath: string;
  /** Aborted when the operation is cancelled or its worker stops: stop waiting for the NFVO. */
  signal?: AbortSignal;
}

/** The NFVO refused the grant; the op occ ends ROLLED_BACK with this detail (403 as in Tacker). */
export class GrantRefused extends Error {
  readonly status: number;
  constructor(detail: string, status = 403) {
    super(detail);
    this.name = 'GrantRefused';
    this.status = status;
  }
}

/**
 * The NFVO could not be asked, or its answer could not be used (unreachable, timeout, 5xx, not a
 * Grant): nothing was granted nor refused, so the op occ ends FAILED_TEMP, to be retried.
 */
export class NfvoUnavailable extends ApiError {
  constructor(status: number, detail: string) {
    super(status, detail);
    this.name = 'NfvoUnavailable';
  }
}

export interface Nfvo {
  grant(request: GrantRequest, context: GrantContext): Promise<Grant>;
}
