/**
 * The granting seam: the LCM engine asks an NFVO for a Grant before it changes resources. The
 * local NFVO (local-nfvo.ts) answers in-process; an external one (SOL003 /grant/v1 over HTTP)
 * will implement the same interface.
 */
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

export interface Nfvo {
  grant(request: GrantRequest, context: GrantContext): Promise<Grant>;
}
