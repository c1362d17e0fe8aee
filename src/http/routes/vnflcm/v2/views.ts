/**
 * SOL003 v3.3.1 representations of the LCM domain (API major v2): VnfInstance and VnfLcmOpOcc,
 * with `_links` by state. Credentials are never shown (vimConnectionInfo goes through the VIM
 * view, which drops accessInfo and secret interfaceInfo keys).
 */
import type { FastifyRequest } from 'fastify';
import type { InstantiatedVnfInfo, ResourceChanges } from '../../../../drivers/infra/contract.ts';
import { vimConnectionInfoView } from '../../../../drivers/infra/vim-connection.ts';
import type { ChangedInfo, OpOccRecord, VnfInstanceRecord } from '../../../../lcm/model.ts';
import type { Params } from '../../../../lcm/operation-def.ts';
import { OPERATION_DEFS } from '../../../../lcm/operations/index.ts';
import { withoutSealed } from '../../../../lcm/vim-info.ts';
import { absoluteUrl } from '../../../sol013/links.ts';
import type { ProblemDetails } from '../../../sol013/problem.ts';

type Link = { href: string };

export const PREFIX = '/vnflcm/v2';
export const instancePath = (id: string) => `${PREFIX}/vnf_instances/${id}`;
export const opOccPath = (id: string) => `${PREFIX}/vnf_lcm_op_occs/${id}`;

export interface VnfInstanceV2 {
  id: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  vnfdId: string;
  vnfProvider: string;
  vnfProductName: string;
  vnfSoftwareVersion: string;
  vnfdVersion: string;
  vnfConfigurableProperties?: Record<string, unknown>;
  vimConnectionInfo?: Record<string, unknown>;
  instantiationState: 'NOT_INSTANTIATED' | 'INSTANTIATED';
  instantiatedVnfInfo?: InstantiatedVnfInfo;
  metadata?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
  _links: Record<string, Link>;
}

/** Task resources offered per instantiation state (link name → path segment). */
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
    changeCurrentVnfPkg: 'change_vnfpkg',
  },
};

const nonEmpty = (o: Record<string, unknown> | undefined) => (o && Object.keys(o).length ? o : undefined);

export function toInstanceV2(record: VnfInstanceRecord, request: FastifyRequest): VnfInstanceV2 {
  const self = instancePath(record.id);
  const links: Record<string, Link> = { self: { href: absoluteUrl(request, self) } };
  for (const [name, segment] of Object.entries(INSTANCE_TASKS[record.instantiationState])) {
    links[name] = { href: absoluteUrl(request, `${self}/${segment}`) };
  }
  const view: VnfInstanceV2 = {
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
    instantiationState: record.instantiationState,
    _links: links,
  };
  const props = nonEmpty(record.vnfConfigurableProperties);
  if (props) view.vnfConfigurableProperties = props;
  const vims = nonEmpty(vimConnectionInfoView(withoutSealed(record.vimConnectionInfo)));
  if (vims) view.vimConnectionInfo = vims;
  if (record.instantiationState === 'INSTANTIATED' && record.instantiatedVnfInfo) {
    view.instantiatedVnfInfo = record.instantiatedVnfInfo;
  }
  const metadata = nonEmpty(record.metadata);
  if (metadata) view.metadata = metadata;
  const extensions = nonEmpty(record.extensions);
  if (extensions) view.extensions = extensions;
  return view;
}

export interface VnfLcmOpOccV2 {
  id: string;
  operationState: OpOccRecord['operationState'];
  stateEnteredTime: string;
  startTime: string;
  vnfInstanceId: string;
  grantId?: string;
  operation: OpOccRecord['operation'];
  isAutomaticInvocation: boolean;
  operationParams?: Record<string, unknown>;
  isCancelPending: boolean;
  cancelMode?: string;
  error?: ProblemDetails;
  resourceChanges?: ResourceChanges;
  changedInfo?: ChangedInfo;
  changedExtConnectivity?: Record<string, unknown>[];
  _links: Record<string, Link>;
}

/** Whether a FAILED_TEMP op occ of this kind can be rolled back (the link is offered only then). */
export const canRollBack = (opOcc: OpOccRecord, facts: Params) =>
  !('refused' in OPERATION_DEFS[opOcc.operation].rollback(opOcc.operationParams, facts));

export function toOpOccV2(record: OpOccRecord, request: FastifyRequest, facts: Params = {}): VnfLcmOpOccV2 {
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
    operationParams: record.operationParams,
    isCancelPending: record.isCancelPending,
    ...(record.cancelMode ? { cancelMode: record.cancelMode } : {}),
    ...(record.error ? { error: record.error } : {}),
    ...(record.resourceChanges ? { resourceChanges: record.resourceChanges } : {}),
    ...(record.changedInfo ? { changedInfo: record.changedInfo } : {}),
    ...(record.changedExtConnectivity ? { changedExtConnectivity: record.changedExtConnectivity } : {}),
    _links: links,
  };
}
