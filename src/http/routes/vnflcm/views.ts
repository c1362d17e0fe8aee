/**
 * The VnfInstance and VnfLcmOpOcc representations of an LCM major, with `_links` by state. What
 * the majors share (attribute order, optional attributes, links) is here; what differs between
 * SOL003 v2.6.1 and v3.3.1 comes from the major's `LcmShapes`. Credentials are never shown: the
 * stored vimConnectionInfo reaches the shapes without its sealed parts.
 */
import type { FastifyRequest } from 'fastify';
import type { OpOccRecord, VnfInstanceRecord } from '../../../lcm/model.ts';
import type { Params } from '../../../lcm/operation-def.ts';
import { OPERATION_DEFS } from '../../../lcm/operations/index.ts';
import type { ProblemDetails } from '../../../sol/problem.ts';
import type { StoredVimConnection } from '../../../vims/connection-info.ts';
import { withoutSealed } from '../../../vims/request-info.ts';
import { absoluteUrl } from '../../sol013/links.ts';
import { TASK_LINKS, type Task } from './tasks.ts';

type Link = { href: string };
type Record_ = Record<string, unknown>;

/** One major's rendering of the record parts whose shape depends on the SOL version. */
export interface LcmShapes<Vims, Info, Changes, Changed> {
  /** Attributes shown after vnfdVersion by this major only (v1: vnfPkgId). */
  identity(record: VnfInstanceRecord): Record_;
  /** The VIM connections to show; undefined shows none. */
  vimConnectionInfo(stored: Record<string, StoredVimConnection>): Vims | undefined;
  instantiatedVnfInfo(info: NonNullable<VnfInstanceRecord['instantiatedVnfInfo']>): Info;
  operationParams(params: Params): Record_;
  resourceChanges(changes: NonNullable<OpOccRecord['resourceChanges']>): Changes;
  changedInfo(changed: NonNullable<OpOccRecord['changedInfo']>): Changed;
  changedExtConnectivity(list: Record_[]): Record_[];
}

export interface VnfInstanceView<Vims = unknown, Info = unknown> {
  id: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  vnfdId: string;
  vnfProvider: string;
  vnfProductName: string;
  vnfSoftwareVersion: string;
  vnfdVersion: string;
  vnfConfigurableProperties?: Record_;
  vimConnectionInfo?: Vims;
  instantiationState: 'NOT_INSTANTIATED' | 'INSTANTIATED';
  instantiatedVnfInfo?: Info;
  metadata?: Record_;
  extensions?: Record_;
  _links: Record<string, Link>;
}

export interface VnfLcmOpOccView<Changes = unknown, Changed = unknown> {
  id: string;
  operationState: OpOccRecord['operationState'];
  stateEnteredTime: string;
  startTime: string;
  vnfInstanceId: string;
  grantId?: string;
  operation: OpOccRecord['operation'];
  isAutomaticInvocation: boolean;
  operationParams?: Record_;
  isCancelPending: boolean;
  cancelMode?: string;
  error?: ProblemDetails;
  resourceChanges?: Changes;
  changedInfo?: Changed;
  changedExtConnectivity?: Record_[];
  _links: Record<string, Link>;
}

export const lcmPrefix = (major: string) => `/vnflcm/${major}`;

/** Whether a FAILED_TEMP op occ of this kind can be rolled back (the link is offered only then). */
export const canRollBack = (opOcc: OpOccRecord, facts: Params) =>
  !('refused' in OPERATION_DEFS[opOcc.operation].rollback(opOcc.operationParams, facts));

const nonEmpty = (o: Record_ | undefined) => (o && Object.keys(o).length ? o : undefined);

/**
 * The op occ's error; with the zones it tried when one had no room (`placementAttempts`, an
 * extension member: ProblemDetails is the one place of an op occ that admits one).
 */
function errorView(record: OpOccRecord): ProblemDetails | undefined {
  if (!record.error || !record.placementAttempts?.length) return record.error;
  return { ...record.error, placementAttempts: record.placementAttempts };
}

/** The two views of a major, and the path of an op occ (for Location headers). */
export function lcmViews<Vims, Info, Changes, Changed>(
  major: string,
  tasks: readonly Task[],
  shapes: LcmShapes<Vims, Info, Changes, Changed>,
) {
  const prefix = lcmPrefix(major);
  const instancePath = (id: string) => `${prefix}/vnf_instances/${id}`;
  const opOccPath = (id: string) => `${prefix}/vnf_lcm_op_occs/${id}`;
  const offered = new Set(tasks.map((t) => t.path));

  function toInstance(record: VnfInstanceRecord, request: FastifyRequest): VnfInstanceView<Vims, Info> {
    const self = instancePath(record.id);
    const links: Record<string, Link> = { self: { href: absoluteUrl(request, self) } };
    for (const [name, segment] of TASK_LINKS[record.instantiationState]) {
      if (offered.has(segment)) links[name] = { href: absoluteUrl(request, `${self}/${segment}`) };
    }
    const view: VnfInstanceView<Vims, Info> = {
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
      ...shapes.identity(record),
      instantiationState: record.instantiationState,
      _links: links,
    };
    const props = nonEmpty(record.vnfConfigurableProperties);
    if (props) view.vnfConfigurableProperties = props;
    const vims = shapes.vimConnectionInfo(withoutSealed(record.vimConnectionInfo));
    if (vims !== undefined) view.vimConnectionInfo = vims;
    if (record.instantiationState === 'INSTANTIATED' && record.instantiatedVnfInfo) {
      view.instantiatedVnfInfo = shapes.instantiatedVnfInfo(record.instantiatedVnfInfo);
    }
    const metadata = nonEmpty(record.metadata);
    if (metadata) view.metadata = metadata;
    const extensions = nonEmpty(record.extensions);
    if (extensions) view.extensions = extensions;
    return view;
  }

  /**
   * `_links`: self and vnfInstance always; cancel while the operation runs (STARTING, PROCESSING,
   * ROLLING_BACK); retry and fail when FAILED_TEMP, rollback too when the operation can be rolled
   * back. No grant link: the grant comes from the built-in NFVO, which exposes no grant resource.
   */
  function toOpOcc(
    record: OpOccRecord,
    request: FastifyRequest,
    facts: Params = {},
  ): VnfLcmOpOccView<Changes, Changed> {
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
      operationParams: shapes.operationParams(record.operationParams),
      isCancelPending: record.isCancelPending,
      ...(record.cancelMode ? { cancelMode: record.cancelMode } : {}),
      ...(record.error ? { error: errorView(record) } : {}),
      ...(record.resourceChanges ? { resourceChanges: shapes.resourceChanges(record.resourceChanges) } : {}),
      ...(record.changedInfo ? { changedInfo: shapes.changedInfo(record.changedInfo) } : {}),
      ...(record.changedExtConnectivity
        ? { changedExtConnectivity: shapes.changedExtConnectivity(record.changedExtConnectivity) }
        : {}),
      _links: links,
    };
  }

  return { toInstance, toOpOcc, opOccPath };
}

export type LcmViews = ReturnType<typeof lcmViews>;
