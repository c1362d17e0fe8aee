/**
 * SOL003 v2.6.1 representations of the LCM domain (API major v1, version 1.3.0): VnfInstance and
 * VnfLcmOpOcc, with `_links` by state. The engine's records are v3.3.1-shaped; the v2.6.1 data
 * comes from src/lcm/v1-shapes.ts (vimConnectionInfo as an array, no vnfcInfo, the zone in
 * vnfcResourceInfo metadata, …). Credentials are never shown.
 */
import type { FastifyRequest } from 'fastify';
import { vimConnectionInfoViewV1 } from '../../../../drivers/infra/vim-connection.ts';
import type { OpOccRecord, VnfInstanceRecord } from '../../../../lcm/model.ts';
import type { Params } from '../../../../lcm/operation-def.ts';
import {
  changedExtConnectivityV1,
  changedInfoV1,
  instantiatedVnfInfoV1,
  operationParamsV1,
  resourceChangesV1,
} from '../../../../lcm/v1-shapes.ts';
import { withoutSealed } from '../../../../lcm/vim-info.ts';
import { absoluteUrl } from '../../../sol013/links.ts';
import type { ProblemDetails } from '../../../sol013/problem.ts';
import { canRollBack } from '../v2/views.ts';

type Link = { href: string };

export const PREFIX = '/vnflcm/v1';
export const instancePath = (id: string) => `${PREFIX}/vnf_instances/${id}`;
export const opOccPath = (id: string) => `${PREFIX}/vnf_lcm_op_occs/${id}`;

export interface VnfInstanceV1 {
  id: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  vnfdId: string;
  vnfProvider: string;
  vnfProductName: string;
  vnfSoftwareVersion: string;
  vnfdVersion: string;
  /** The package the instance uses (Tacker v1 shows it; SOL003 v2.6.1 modifies it). */
  vnfPkgId: string;
  vnfConfigurableProperties?: Record<string, unknown>;
  vimConnectionInfo?: Record<string, unknown>[];
  instantiationState: 'NOT_INSTANTIATED' | 'INSTANTIATED';
  instantiatedVnfInfo?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
  _links: Record<string, Link>;
}

/** Task resources offered per instantiation state (link name → path segment); v2.6.1 has no change_vnfpkg. */
const INSTANCE_TASKS: Readonly<
  Record<VnfInstanceRecord['instantiationState'], Readonly<Record<string, string>>>
> = {
  NOT_INSTANTIATED: { instantiate: 'instantiate' },
  INSTANTIATED: {
    terminate: 'terminate',
    scale: 'scale',
    scaleToLevel: 'scale_to_level',
    changeFlavour: 'change_flavour',
    heal: 'heal',
    operate: 'operate',
    changeExtConn: 'change_ext_conn',
  },
};

const nonEmpty = (o: Record<string, unknown> | undefined) => (o && Object.keys(o).length ? o : undefined);

export function toInstanceV1(record: VnfInstanceRecord, request: FastifyRequest): VnfInstanceV1 {
  const self = instancePath(record.id);
  const links: Record<string, Link> = { self: { href: absoluteUrl(request, self) } };
  for (const [name, segment] of Object.entries(INSTANCE_TASKS[record.instantiationState])) {
    links[name] = { href: absoluteUrl(request, `${self}/${segment}`) };
  }
  const view: VnfInstanceV1 = {
    id: record.id,
    ...(record.vnfInstanceName !== undefined ? { vnfInstanceName: record.vnfInstanceName } : {}),
    ...(record.vnfInstanceDescription !== undefined
      ? { vnfInstanceDescription: record.vnfInstanceDescription }
      : {}),
    vnfdId: record.vnfdId,
    vnfProvider: record.vnfProvider,
    vnfProductName: record.vnfProductName,
    vnfSoftwareVersion: record.vnfSoftwareVersion,
    vnfdVersion: record.vnfdVersion,
    vnfPkgId: record.vnfPkgId,
    instantiationState: record.instantiationState,
    _links: links,
  };
  const props = nonEmpty(record.vnfConfigurableProperties);
  if (props) view.vnfConfigurableProperties = props;
  const vims = vimConnectionInfoViewV1(withoutSealed(record.vimConnectionInfo));
  if (vims.length) view.vimConnectionInfo = vims as unknown as Record<string, unknown>[];
  if (record.instantiationState === 'INSTANTIATED' && record.instantiatedVnfInfo) {
    view.instantiatedVnfInfo = instantiatedVnfInfoV1(record.instantiatedVnfInfo);
  }
  const metadata = nonEmpty(record.metadata);
  if (metadata) view.metadata = metadata;
  const extensions = nonEmpty(record.extensions);
  if (extensions) view.extensions = extensions;
  return view;
}

export interface VnfLcmOpOccV1 {
  id: string;
  operationState: OpOccRecord['operationState'];
  stateEnteredTime: string;
  startTime: string;
  vnfInstanceId: string;
  grantId?: string;
  operation: OpOccRecord['operation'];
  isAutomaticInvocation: boolean;
  operationParams: Record<string, unknown>;
  isCancelPending: boolean;
  cancelMode?: string;
  error?: ProblemDetails;
  resourceChanges?: Record<string, unknown>;
  changedInfo?: Record<string, unknown>;
  changedExtConnectivity?: Record<string, unknown>[];
  _links: Record<string, Link>;
}

/**
 * The v2.6.1 VnfLcmOpOcc. `_links`: self and vnfInstance always; cancel while the operation runs
 * (STARTING, PROCESSING, ROLLING_BACK); retry and fail when FAILED_TEMP, rollback too when the
 * operation can be rolled back. No grant link: the grant comes from the built-in NFVO, which
 * exposes no grant resource.
 */
export function toOpOccV1(record: OpOccRecord, request: FastifyRequest, facts: Params = {}): VnfLcmOpOccV1 {
  const self = opOccPath(record.id);
  const links: Record<string, Link> = {
    self: { href: absoluteUrl(request, self) },
    vnfInstance: { href: absoluteUrl(request, instancePath(record.vnfInstanceId)) },
  };
  const task = (name: string) => {
    links[name] = { href: absoluteUrl(request, `${self}/${name}`) };
  };
  if (['STARTING', 'PROCESSING', 'ROLLING_BACK'].includes(record.operationState)) task('cancel');
  if (record.operationState === 'FAILED_TEMP') {
    task('retry');
    if (canRollBack(record, facts)) task('rollback');
    task('fail');
  }
  return {
    id: record.id,
    operationState: record.operationState,
    stateEnteredTime: record.stateEnteredTime,
    startTime: record.startTime,
    vnfInstanceId: record.vnfInstanceId,
    ...(record.grantId ? { grantId: record.grantId } : {}),
    operation: record.operation,
    isAutomaticInvocation: record.isAutomaticInvocation,
    operationParams: operationParamsV1(record.operationParams),
    isCancelPending: record.isCancelPending,
    ...(record.cancelMode ? { cancelMode: record.cancelMode } : {}),
    ...(record.error ? { error: record.error } : {}),
    ...(record.resourceChanges ? { resourceChanges: resourceChangesV1(record.resourceChanges) } : {}),
    ...(record.changedInfo ? { changedInfo: changedInfoV1(record.changedInfo) } : {}),
    ...(record.changedExtConnectivity
      ? { changedExtConnectivity: changedExtConnectivityV1(record.changedExtConnectivity) }
      : {}),
    _links: links,
  };
}
