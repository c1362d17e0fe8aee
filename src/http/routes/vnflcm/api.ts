/**
 * One LCM major as the shared routes (instances.ts, op-occs.ts) serve it: its store, request
 * schemas, views and lists, and the few ways its API differs in behaviour, as data.
 */
import type { FastifyRequest } from 'fastify';
import type { LcmMajor } from '../../../lcm/majors/index.ts';
import type { VnfInstanceRecord } from '../../../lcm/model.ts';
import type { Params } from '../../../lcm/operation-def.ts';
import type { LcmService } from '../../../lcm/service.ts';
import type { LcmStore } from '../../../lcm/store.ts';
import type { AttributeMap } from '../../../sol/attributes.ts';
import type { ListResource } from '../../sol013/list-query.ts';
import { instanceListOf, opOccListOf } from './lists.ts';
import { type Task, tasksOf } from './tasks.ts';
import type { LcmViews } from './views.ts';

export interface LcmRequests {
  readonly CreateVnfRequest: object;
  readonly VnfInfoModificationRequest: object;
  readonly CancelMode: object;
  readonly [name: string]: object;
}

export interface LcmApi {
  major: LcmMajor;
  store: LcmStore;
  requests: LcmRequests;
  /** The task resources its request schemas cover. */
  tasks: readonly Task[];
  views: LcmViews;
  // biome-ignore lint/suspicious/noExplicitAny: each major lists its own row and view types
  instanceList: ListResource<any, object>;
  // biome-ignore lint/suspicious/noExplicitAny: each major lists its own row and view types
  opOccList: ListResource<any, object>;
  /** A validated task or modify body in the engine's shapes. */
  toEngine(body: Params): Params;
  /** Refuses a create request before the engine sees it (Tacker v1: unknown vnfdId is 404). */
  checkCreate(svc: LcmService, request: FastifyRequest, body: Params): Promise<void>;
  /** A modify request in this major's terms turned into the engine's (Tacker v1's vnfPkgId). */
  modifyRequest(svc: LcmService, instance: VnfInstanceRecord, body: Params): Promise<Params>;
  /** Status of a rollback the operation cannot have: 422 by SOL003, 409 as Tacker v1 answers. */
  refusedRollbackStatus: 409 | 422;
}

/** What a major declares; its tasks, views and lists follow from it. */
export interface LcmApiDeclaration extends Omit<LcmApi, 'tasks' | 'views' | 'instanceList' | 'opOccList'> {
  views(tasks: readonly Task[]): LcmViews;
  instanceAttributes: AttributeMap;
  opOccAttributes: AttributeMap;
}

export function lcmApi({
  views: viewsOf,
  instanceAttributes,
  opOccAttributes,
  ...rest
}: LcmApiDeclaration): LcmApi {
  const tasks = tasksOf(rest.requests);
  const views = viewsOf(tasks);
  return {
    ...rest,
    tasks,
    views,
    instanceList: instanceListOf(rest.store, instanceAttributes, views.toInstance),
    opOccList: opOccListOf(rest.store, opOccAttributes, views.toOpOcc),
  };
}
