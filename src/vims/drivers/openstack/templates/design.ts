/**
 * What a Heat stack of a VNF instance must hold, independent of the operation that asks for it:
 * every operation (instantiate, scale, heal, change flavour/ext conn/package) computes the whole
 * desired VNF and the stack is created or updated to it, so a retry converges instead of
 * duplicating. The templates folder turns a design into Heat's template, files and parameters.
 */

import type { Flavour } from '../../../../vnfd/model/vnfd.ts';
import type { ExtVirtualLinkData } from '../../../contract.ts';

/** One VNFC of the stack. Unset values are kept from the stack's previous parameters. */
export interface StackVnfc {
  /** vnfcResourceInfo id (the engine's NewVnfc.id): the key of its resources in the stack. */
  id: string;
  vduId: string;
  /** Availability zone name at the VIM. */
  zone?: string;
  /** Nova flavour id or name. */
  flavour?: string;
  /** Software image node (the VDU's or a storage's name) → Glance image id or name. */
  images?: Record<string, string>;
  /** VduCp node names it has a port for. */
  cps: string[];
  /** Storage node names it has a volume for. */
  storages: string[];
}

/** Templates read from the package (BaseHOT) or generated from the VNFD. */
export interface HotSource {
  /** Where the top template comes from (a package path, or `generated`). */
  origin: string;
  /** The top template, parsed. */
  template: Record<string, unknown>;
  /** Nested templates by the name the top template's `type:` uses, as text. */
  files: Record<string, string>;
}

/** The `nfv` JSON parameter of Tacker's UserData conventions: `VDU`, `CP` sections and leaves. */
export type NfvParameters = Record<string, unknown>;

/**
 * How VNFCs map onto the template. `per-vnfc` (Tacker's StandardUserData): each VDU resource of
 * the top template is copied once per VNFC under the VNFC's own key, so every VNFC gets its own
 * zone, flavour and image. `per-vdu` (Tacker's default UserData): one resource per VDU, usually
 * an AutoScalingGroup sized by `desired_capacity`.
 */
export type VnfcLayout = 'per-vnfc' | 'per-vdu';

export interface StackDesign {
  flavour: Flavour;
  /** Every VNFC the stack must have, newest first (as vnfcResourceInfo is ordered). */
  vnfcs: StackVnfc[];
  extVirtualLinks: readonly ExtVirtualLinkData[];
  extManagedVirtualLinks: readonly Record<string, unknown>[];
  /** The template to use: the package's BaseHOT when it has one, else generated from the VNFD. */
  source: HotSource;
  /** Forces a layout (Tacker's `lcm-operation-user-data-class`); else chosen from the template's shape. */
  layout?: VnfcLayout;
  /** The stack's `nfv` parameter before this operation (values of VNFCs the design leaves unset). */
  previous?: NfvParameters;
}

/** What Heat's stack create/update takes. */
export interface StackBuild {
  template: Record<string, unknown>;
  files: Record<string, string>;
  parameters: { nfv: NfvParameters };
  layout: VnfcLayout;
  /**
   * Top-level resource name → the VNFC ids it holds: one VNFC per resource for `per-vnfc`, every
   * VNFC of the VDU (newest first) for `per-vdu` (the driver matches the group's members to them).
   */
  resources: Record<string, string[]>;
}
