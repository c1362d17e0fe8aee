/**
 * /vnflcm/v2/vnf_instances: create, list, show (ETag), modify (PATCH with If-Match → a
 * MODIFY_INFO op occ), delete, and the operation task resources (instantiate, terminate, scale,
 * scale_to_level, heal, change_flavour, change_ext_conn, change_vnfpkg, operate), each answering
 * 202 with the Location of its op occ.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Operation } from '../../../../lcm/model.ts';
import type { Params } from '../../../../lcm/operation-def.ts';
import {
  type CreateRequest,
  createInstance,
  deleteInstance,
  startOperation,
} from '../../../../lcm/service.ts';
import { checkIfMatch, etagOf, setEtag } from '../../../sol013/etag.ts';
import { absoluteUrl } from '../../../sol013/links.ts';
import { listPage, listQuerySchema, sendPage } from '../../../sol013/list-query.ts';
import { ApiError } from '../../../sol013/problem.ts';
import type { Sol013RouteConfig } from '../../../sol013/route-config.ts';
import { idParam, lcmService, loadInstance } from './context.ts';
import { instanceList } from './lists.ts';
import { REQUESTS } from './requests/index.ts';
import { opOccPath, PREFIX, toInstanceV2 } from './views.ts';

const sol013: Sol013RouteConfig = { api: 'vnflcm', major: 'v2' };

/** Task resource → operation and its request schema. */
const TASKS: readonly { path: string; operation: Operation; body: object }[] = [
  { path: 'instantiate', operation: 'INSTANTIATE', body: REQUESTS.InstantiateVnfRequest },
  { path: 'terminate', operation: 'TERMINATE', body: REQUESTS.TerminateVnfRequest },
  { path: 'scale', operation: 'SCALE', body: REQUESTS.ScaleVnfRequest },
  { path: 'scale_to_level', operation: 'SCALE_TO_LEVEL', body: REQUESTS.ScaleVnfToLevelRequest },
  { path: 'heal', operation: 'HEAL', body: REQUESTS.HealVnfRequest },
  { path: 'change_flavour', operation: 'CHANGE_FLAVOUR', body: REQUESTS.ChangeVnfFlavourRequest },
  { path: 'change_ext_conn', operation: 'CHANGE_EXT_CONN', body: REQUESTS.ChangeExtVnfConnectivityRequest },
  { path: 'change_vnfpkg', operation: 'CHANGE_VNFPKG', body: REQUESTS.ChangeCurrentVnfPkgRequest },
  { path: 'operate', operation: 'OPERATE', body: REQUESTS.OperateVnfRequest },
];

const bodyOf = (request: FastifyRequest): Params => {
  if (request.body === undefined || request.body === null)
    throw new ApiError(400, 'The request body is missing.');
  return request.body as Params;
};

export function mountInstances(app: FastifyInstance): void {
  const base = `${PREFIX}/vnf_instances`;
  const one = `${base}/:id`;
  const svc = () => lcmService(app);
  const list = instanceList(svc().store);

  app.get(
    base,
    { schema: { querystring: listQuerySchema({ selectors: true }) }, config: { sol013 } },
    async (request, reply) => sendPage(request, reply, await listPage(request, list)),
  );

  app.post(
    base,
    { schema: { body: REQUESTS.CreateVnfRequest }, config: { sol013 } },
    async (request, reply) => {
      const record = await createInstance(
        svc(),
        request.caller.project,
        bodyOf(request) as unknown as CreateRequest,
      );
      const view = toInstanceV2(record, request);
      setEtag(reply, etagOf(view));
      return reply.code(201).header('Location', view._links.self.href).send(view);
    },
  );

  app.get(one, { config: { sol013 } }, async (request, reply) => {
    const view = toInstanceV2(await loadInstance(request, svc(), idParam(request)), request);
    setEtag(reply, etagOf(view));
    return view;
  });

  app.patch(
    one,
    { schema: { body: REQUESTS.VnfInfoModificationRequest }, config: { sol013 } },
    async (request, reply) => {
      const instance = await loadInstance(request, svc(), idParam(request));
      const opOcc = await startOperation(svc(), instance.id, 'MODIFY_INFO', bodyOf(request), {
        precondition: (held) => checkIfMatch(request, etagOf(toInstanceV2(held, request))),
      });
      return reply
        .code(202)
        .header('Location', absoluteUrl(request, opOccPath(opOcc.id)))
        .send();
    },
  );

  app.delete(one, { config: { sol013 } }, async (request, reply) => {
    const instance = await loadInstance(request, svc(), idParam(request));
    await deleteInstance(svc(), instance);
    return reply.code(204).send();
  });

  for (const task of TASKS) {
    app.post(
      `${one}/${task.path}`,
      { schema: { body: task.body }, config: { sol013 } },
      async (request, reply) => {
        const instance = await loadInstance(request, svc(), idParam(request));
        const opOcc = await startOperation(svc(), instance.id, task.operation, bodyOf(request));
        return reply
          .code(202)
          .header('Location', absoluteUrl(request, opOccPath(opOcc.id)))
          .send();
      },
    );
  }
}
