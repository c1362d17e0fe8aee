/**
 * What every step of an op occ sees: the op occ being run, the instance and packages it works on,
 * the grant once made, and the engine's ports. Small readers of it that several steps share.
 */
import type { Grant, GrantRequest } from '../../grant/types.ts';
import type { VnfcResourceInfo } from '../../sol/instance-model.ts';
import { ApiError } from '../../sol/problem.ts';
import type { StoredVimConnection } from '../../vims/connection-info.ts';
import type { VimConnection } from '../../vims/contract.ts';
import { mergeVims } from '../../vims/request-info.ts';
import { isRecord } from '../../vnfd/model/values.ts';
import type { Flavour, Vnfd } from '../../vnfd/model/vnfd.ts';
import type { EngineDeps } from '../engine-deps.ts';
import type { LcmLinks } from '../links.ts';
import type { CancelMode, OpOccRecord, VnfInstanceRecord } from '../model.ts';
import type { AcceptFacts, LcmPackage, OperationDef } from '../operation-def.ts';
import type { Progress } from '../progress.ts';
import type { LcmStore } from '../store.ts';
import type { TimelineWriter } from '../timeline/writer.ts';

/** What the runner tells the engine about the run: abort signal and why it fired. */
export interface RunControl {
  signal: AbortSignal;
  /** 'lease' when the worker lost its lease (or gave up at shutdown), 'cancel' for a FORCEFUL cancel. */
  abortReason(): 'lease' | 'cancel' | undefined;
  /** The worker is shutting down: hand the op occ back to the queue at the next step boundary. */
  stopping(): boolean;
}

export interface Run {
  deps: EngineDeps;
  store: LcmStore;
  links: LcmLinks;
  owner: string;
  control: RunControl;
  opOcc: OpOccRecord;
  progress: Progress;
  grantRequest?: GrantRequest;
  grant?: Grant;
  def: OperationDef;
  instance: VnfInstanceRecord;
  pkg: LcmPackage;
  target: LcmPackage;
  flavour?: Flavour;
  facts: AcceptFacts;
  /** The op occ's timeline: steps, driver phases and lines, zone attempts as they happen. */
  timeline: TimelineWriter;
  /** A cancel asked for, as last read from the op occ (every save reads it back). */
  cancelMode?: CancelMode;
  /** The VIMs' availability zones, read once per run of the operation (by VIM). */
  zones?: Map<string, Promise<string[]>>;
}

/** The availability zones of VIM `vim`, read from its driver once per run. */
export function vimZones(run: Run, vim: VimConnection): Promise<string[]> {
  run.zones ??= new Map();
  const key = `${vim.vimType} ${vim.vimId ?? vim.id}`;
  let zones = run.zones.get(key);
  if (!zones) {
    zones = run.deps.vims.zones(vim);
    // A failed read is not kept: the next caller asks the VIM again.
    zones.catch(() => run.zones?.delete(key));
    run.zones.set(key, zones);
  }
  return zones;
}

/** The flavour a granted operation works in (the engine refuses to start one without). */
export function flavourOf(run: Run): Flavour {
  if (!run.flavour)
    throw new ApiError(422, `The operation ${run.opOcc.operation} names no flavour of the VNFD.`);
  return run.flavour;
}

/** The VNFD the operation works with: the target's for CHANGE_VNFPKG, else the instance's. */
export const vnfdOf = (run: Run): Vnfd =>
  run.opOcc.operation === 'CHANGE_VNFPKG' ? run.target.vnfd : run.pkg.vnfd;

/** The request's additionalParams (an object, as the API checked). */
export function additionalParams(run: Run): Record<string, unknown> | undefined {
  const params = run.opOcc.operationParams.additionalParams;
  return isRecord(params) ? params : undefined;
}

/**
 * Whether placement rules may be broken when they cannot be met: the request's
 * `additionalParams.fallbackBestEffort` (a boolean, checked when the request was accepted), else
 * `lcm.placementFallbackBestEffort`.
 */
export function fallbackBestEffort(run: Run): boolean {
  const asked = additionalParams(run)?.fallbackBestEffort;
  return typeof asked === 'boolean' ? asked : run.deps.config.lcm.placementFallbackBestEffort;
}

/** The zone a VNFC is in, as its driver reported it (zoneId, else Tacker's metadata.zone). */
export function vnfcZone(v: VnfcResourceInfo): string | undefined {
  const zone = v.zoneId ?? v.metadata?.zone;
  return typeof zone === 'string' && zone ? zone : undefined;
}

/** The VNFCs the instance has once the operation is done: those that stay and those it adds. */
export function vnfcsAfter(run: Run): { kept: VnfcResourceInfo[]; all: { id: string; vduId: string }[] } {
  const delta = run.progress.outputs.grant?.planned.delta ?? {};
  const gone = new Set(delta.removeVnfcs ?? []);
  const kept = (run.instance.instantiatedVnfInfo?.vnfcResourceInfo ?? []).filter((v) => !gone.has(v.id));
  return { kept, all: [...kept, ...(delta.addVnfcs ?? [])].map((v) => ({ id: v.id, vduId: v.vduId })) };
}

/** The instance's VIM connections with those the request adds or removes. */
export function storedVims(run: Run): Record<string, StoredVimConnection> {
  return mergeVims(run.instance.vimConnectionInfo, run.facts.vimConnectionInfo);
}
