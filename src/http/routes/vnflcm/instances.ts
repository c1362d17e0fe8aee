/**
 * /vnflcm/<major>/vnf_instances: create, list, show (ETag), modify (PATCH with If-Match → a
 * MODIFY_INFO op occ), delete, and the task resources the major has (tasks.ts), each answering
 * 202 with the Location of its op occ. Bodies are validated with the major's request schemas,
 * then turned into the engine's shapes by the major (api.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Params } from '../../../lcm/operation-def.ts';
import {
  type CreateRequest,
  createInstance,
  deleteInstance,
  fetchMissingPackage,
  startOperation,
} from '../../../lcm/service.ts';
import { ApiError } from '../../../sol/problem.ts';
import { checkIfMatch, etagOf, setEtag } from '../../sol013/etag.ts';
import { absoluteUrl } from '../../sol013/links.ts';
import { listPage, listQuerySchema, sendPage } from '../../sol013/list-query.ts';
import type { Sol013RouteConfig } from '../../sol013/route-config.ts';
import type { LcmApi } from './api.ts';
import { idParam, lcmService, loadInstance } from './context.ts';
import { lcmPrefix } from './views.ts';

const bodyOf = (request: FastifyRequest): Params => {
  if (request.body === undefined || request.body === null)
    throw new ApiError(400, 'The request body is missing.');
  return request.body as Params;
};

export function mountInstances(app: FastifyInstance, api: LcmApi): void {
  const sol013: Sol013RouteConfig = { api: 'vnflcm', major: api.major };
  const base = `${lcmPrefix(api.major)}/vnf_instances`;
  const one = `${base}/:id`;
  const svc = () => lcmService(app, api.store);
  const { toInstance, opOccPath } = api.views;
  const accepted = (request: FastifyRequest, opOccId: string) => ({
    Location: absoluteUrl(request, opOccPath(opOccId)),
  });

  app.get(
    base,
    { schema: { querystring: listQuerySchema({ selectors: true }) }, config: { sol013 } },
    async (request, reply) => sendPage(request, reply, await listPage(request, api.instanceList)),
  );

  app.post(
    base,
    { schema: { body: api.requests.CreateVnfRequest }, config: { sol013 } },
    async (request, reply) => {
      const body = bodyOf(request);
      await fetchMissingPackage(svc(), request.caller.project, body.vnfdId as string);
      await api.checkCreate(svc(), request, body);
      const record = await createInstance(svc(), request.caller.project, body as unknown as CreateRequest);
      const view = toInstance(record, request);
      setEtag(reply, etagOf(view));
      return reply.code(201).header('Location', view._links.self.href).send(view);
    },
  );

  app.get(one, { config: { sol013 } }, async (request, reply) => {
    const view = toInstance(await loadInstance(request, svc(), idParam(request)), request);
    setEtag(reply, etagOf(view));
    return view;
  });

  app.patch(
    one,
    { schema: { body: api.requests.VnfInfoModificationRequest }, config: { sol013 } },
    async (request, reply) => {
      const instance = await loadInstance(request, svc(), idParam(request));
      const body = api.toEngine(await api.modifyRequest(svc(), instance, bodyOf(request)));
      const opOcc = await startOperation(svc(), instance.id, 'MODIFY_INFO', body, {
        precondition: (held) => checkIfMatch(request, etagOf(toInstance(held, request))),
      });
      return reply.code(202).headers(accepted(request, opOcc.id)).send();
    },
  );

  app.delete(one, { config: { sol013 } }, async (request, reply) => {
    const instance = await loadInstance(request, svc(), idParam(request));
    await deleteInstance(svc(), instance);
    return reply.code(204).send();
  });

  for (const task of api.tasks) {
    app.post(
      `${one}/${task.path}`,
      { schema: { body: api.requests[task.body] }, config: { sol013 } },
      async (request, reply) => {
        const instance = await loadInstance(request, svc(), idParam(request));
        const params = api.toEngine(bodyOf(request));
        const opOcc = await startOperation(svc(), instance.id, task.operation, params);
        return reply.code(202).headers(accepted(request, opOcc.id)).send();
      },
    );
  }
}
