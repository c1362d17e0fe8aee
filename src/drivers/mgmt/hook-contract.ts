/**
 * The hook contract: what a management-driver hook (a VNFD Vnflcm script such as
 * `instantiate_end`) receives as JSON on stdin and may answer as JSON on stdout. This file is the
 * contract's one definition; package authors writing hooks in TypeScript can import its types.
 * It imports nothing but types. A change that breaks a hook raises the major of
 * HOOK_CONTRACT_VERSION; additions raise the minor.
 *
 * Environment: only `PATH`, `HOME` and `TMPDIR` (both `/tmp`, private to the hook), `LANG`,
 * `BOSUN_HOOK` (the hook name), `BOSUN_HOOK_CONTRACT_VERSION` and `BOSUN_HOOK_DIR` (the read-only
 * folder holding the artifact). The working folder is `/tmp`.
 */

import type { InstantiatedVnfInfo, ResourceChanges } from '../../sol/instance-model.ts';
import type { Flavour } from '../../vnfd/model/vnfd.ts';

export const HOOK_CONTRACT_VERSION = '1.0';

/** LCM operation types (SOL003 LcmOperationType). */
export type HookLcmOperation =
  | 'INSTANTIATE'
  | 'SCALE'
  | 'SCALE_TO_LEVEL'
  | 'CHANGE_FLAVOUR'
  | 'TERMINATE'
  | 'HEAL'
  | 'OPERATE'
  | 'CHANGE_EXT_CONN'
  | 'MODIFY_INFO'
  | 'CHANGE_VNFPKG';

/** One VIM connection: credentials (`accessInfo`, secret interfaceInfo keys) only for VIMs whose `vims.<id>.exposeCredentialsToHooks` is true. */
export interface HookVimConnection {
  vimId?: string;
  vimType: string;
  interfaceInfo?: Record<string, unknown>;
  accessInfo?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

/** The VNF instance (SOL003 VnfInstance, v3.3.1 shape) without credentials. */
export interface HookVnfInstance {
  id: string;
  projectId: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  vnfdId: string;
  vnfPkgId: string;
  vnfProvider: string;
  vnfProductName: string;
  vnfSoftwareVersion: string;
  vnfdVersion: string;
  instantiationState: 'NOT_INSTANTIATED' | 'INSTANTIATED';
  /** Its VNFCs in `vnfcResourceInfo` (ids, VDU, zone, server, metadata such as a hostname a hook wrote). */
  instantiatedVnfInfo?: InstantiatedVnfInfo;
  vimConnectionInfo: Record<string, HookVimConnection>;
  vnfConfigurableProperties: Record<string, unknown>;
  metadata: Record<string, unknown>;
  extensions: Record<string, unknown>;
}

/** stdin of every hook. */
export interface HookInput {
  contractVersion: typeof HOOK_CONTRACT_VERSION;
  /** The hook's name: `<op>_start`, `<op>_end`, `<op>_rollback_start`, `<op>_rollback_end`. */
  operation: string;
  /** The operation type of the op occ. */
  lcmOperation: HookLcmOperation;
  vnfLcmOpOccId: string;
  /** The operation's request as accepted (operationParams; credentials removed). */
  request: Record<string, unknown>;
  /**
   * `_start` hooks: the instance before the operation. `_end` hooks: the instance as the VIM work
   * left it, with the start hook's answer applied (e.g. `instantiate_end` sees INSTANTIATED and
   * its VNFCs, `heal_end` the new servers). `_rollback_start`: the instance as the failed
   * operation left it; `_rollback_end`: the instance as it was before the operation.
   */
  vnfInstance: HookVnfInstance;
  /** Granted operations: the GrantRequest and the Grant (SOL003). */
  grantRequest?: Record<string, unknown>;
  grant?: Record<string, unknown>;
  /** The VNFD the operation works with (the target package's for CHANGE_VNFPKG) and its flavour's model. */
  vnfd: { vnfdId: string; vnfPkgId: string; flavourId: string; flavour: Flavour };
  /** The VIM connections the operation works with, keyed as in vnfInstance.vimConnectionInfo. */
  vimConnectionInfo: Record<string, HookVimConnection>;
  /**
   * All but `_start` hooks: the resources the VIM step changed (added, removed, modified VNFCs,
   * VLs, storages); `_rollback_end` hooks: what the rollback removed or restored.
   */
  resourceChanges?: ResourceChanges;
  /** `_end` hooks: what the `_start` hook answered (already applied to vnfInstance). */
  startHookOutput?: HookOutput;
}

/**
 * stdout of a hook: one JSON object (empty output means `{}`); anything else fails the hook.
 * Objects are RFC 7386 merge patches (null deletes a key), applied when the operation completes.
 */
export interface HookOutput {
  vnfInstance?: {
    metadata?: Record<string, unknown>;
    extensions?: Record<string, unknown>;
    vnfConfigurableProperties?: Record<string, unknown>;
  };
  /**
   * Per VNFC (an id of vnfInstance.instantiatedVnfInfo.vnfcResourceInfo as the hook saw it): a
   * merge patch of its metadata, e.g. `{"id": "…", "metadata": {"hostname": "db-0"}}`. The keys
   * the VIM driver sets (zone, host, flavor, image, serverName, opOccId) cannot be changed.
   */
  vnfcResourceInfo?: { id: string; metadata: Record<string, unknown> }[];
}
