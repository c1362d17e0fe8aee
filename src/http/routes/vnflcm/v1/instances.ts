/**
 * /vnflcm/v1/vnf_instances (SOL002/SOL003 v2.6.1): create, list, show (ETag), modify (PATCH, with
 * If-Match → a MODIFY_INFO op occ), delete, and the operation task resources (instantiate,
 * terminate, scale, scale_to_level, heal, change_flavour, change_ext_conn, operate — v2.6.1 has no
 * change_vnfpkg), each answering 202 with the Location of its op occ. Requests are validated with
 * the 1.3.0 schemas, then turned into the engine's shapes (src/lcm/v1-shapes.ts).
 *
 * Status codes follow Tacker's v1 API (reference §1.6) where it is right: an unknown vnfdId on
 * create is 404. Where Tacker is wrong Bosun does better: ETag and If-Match (412) on the instance,
 * every refusal is a ProblemDetails.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Operation } from '../../../../lcm/model.ts';
import type { Params } from '../../../../lcm/operation-def.ts';
import { packageByVnfdId } from '../../../../lcm/packages.ts';
import {
  type CreateRequest,
  createInstance,
  deleteInstance,
  startOperation,
} from '../../../../lcm/service.ts';
import { engineRequestOf } from '../../../../lcm/v1-shapes.ts';
import { checkIfMatch, etagOf, setEtag } from '../../../sol013/etag.ts';
import { absoluteUrl } from '../../../sol013/links.ts';
import { listPage, listQuerySchema, sendPage } from '../../../sol013/list-query.ts';
import { ApiError } from '../../../sol013/problem.ts';
import type { Sol013RouteConfig } from '../../../sol013/route-config.ts';
import { idParam, lcmServiceV1, loadInstance } from './context.ts';
import { instanceListV1 } from './lists.ts';
import { REQUESTS } from './requests/index.ts';
import { opOccPath, PREFIX, toInstanceV1 } from './views.ts';

const sol013: Sol013RouteConfig = { api: 'vnflcm', major: 'v1' };

/** Task resource → operation and its request schema. */
const TASKS: readonly { path: string; operation: Operation; body: object }[] = [
  { path: 'instantiate', operation: 'INSTANTIATE', body: REQUESTS.InstantiateVnfRequest },
  { path: 'terminate', operation: 'TERMINATE', body: REQUESTS.TerminateVnfRequest },
  { path: 'scale', operation: 'SCALE', body: REQUESTS.ScaleVnfRequest },
  { path: 'scale_to_level', operation: 'SCALE_TO_LEVEL', body: REQUESTS.ScaleVnfToLevelRequest },
  { path: 'heal', operation: 'HEAL', body: REQUESTS.HealVnfRequest },
  { path: 'change_flavour', operation: 'CHANGE_FLAVOUR', body: REQUESTS.ChangeVnfFlavourRequest },
  { path: 'change_ext_conn', operation: 'CHANGE_EXT_CONN', body: REQUESTS.ChangeExtVnfConnectivityRequest },
  { path: 'operate', operation: 'OPERATE', body: REQUESTS.OperateVnfRequest },
];

const bodyOf = (request: FastifyRequest): Params => {
  if (request.body === undefined || request.body === null)
    throw new ApiError(400, 'The request body is missing.');
  return request.body as Params;
};

export function mountInstancesV1(app: FastifyInstance): void {
  const base = `${PREFIX}/vnf_instances`;
  const one = `${base}/:id`;
  const svc = () => lcmServiceV1(app);
  const list = instanceListV1(svc().store);

  app.get(
    base,
    { schema: { querystring: listQuerySchema({ selectors: true }) }, config: { sol013 } },
    async (request, reply) => sendPage(request, reply, await listPage(request, list)),
  );

  app.post(
    base,
    { schema: { body: REQUESTS.CreateVnfRequest }, config: { sol013 } },
    async (request, reply) => {
      const body = bodyOf(request) as unknown as CreateRequest;
      // Tacker v1: a vnfdId no ONBOARDED package of the project has is a 404.
      if (!(await packageByVnfdId(svc().db.kysely, request.caller.project, body.vnfdId))) {
        throw new ApiError(404, `No ONBOARDED VNF package has vnfdId ${body.vnfdId}.`);
      }
      const record = await createInstance(svc(), request.caller.project, body);
      const view = toInstanceV1(record, request);
      setEtag(reply, etagOf(view));
      return reply.code(201).header('Location', view._links.self.href).send(view);
    },
  );

  app.get(one, { config: { sol013 } }, async (request, reply) => {
    const view = toInstanceV1(await loadInstance(request, svc(), idParam(request)), request);
    setEtag(reply, etagOf(view));
    return view;
  });

  app.patch(
    one,
    { schema: { body: REQUESTS.VnfInfoModificationRequest }, config: { sol013 } },
    async (request, reply) => {
      const instance = await loadInstance(request, svc(), idParam(request));
      const body = { ...bodyOf(request) };
      if (body.vnfPkgId !== undefined) {
        // Tacker v1: the target named by its package; the engine works with its vnfdId.
        const pkg = await svc()
          .db.kysely.selectFrom('vnf_packages')
          .select(['vnfd_id', 'onboarding_state'])
          .where('id', '=', body.vnfPkgId as string)
          .where('project_id', '=', instance.projectId)
          .executeTakeFirst();
        if (!pkg?.vnfd_id || pkg.onboarding_state !== 'ONBOARDED') {
          throw new ApiError(422, `No ONBOARDED VNF package has id ${body.vnfPkgId}.`);
        }
        if (body.vnfdId !== undefined && body.vnfdId !== pkg.vnfd_id) {
          throw new ApiError(
            400,
            `vnfdId ${body.vnfdId} and vnfPkgId ${body.vnfPkgId} (vnfdId ${pkg.vnfd_id}) name different VNFDs.`,
          );
        }
        body.vnfdId = pkg.vnfd_id;
        delete body.vnfPkgId;
      }
      const opOcc = await startOperation(svc(), instance.id, 'MODIFY_INFO', engineRequestOf(body), {
        precondition: (held) => checkIfMatch(request, etagOf(toInstanceV1(held, request))),
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
        const opOcc = await startOperation(
          svc(),
          instance.id,
          task.operation,
          engineRequestOf(bodyOf(request)),
        );
        return reply
          .code(202)
          .header('Location', absoluteUrl(request, opOccPath(opOcc.id)))
          .send();
      },
    );
  }
}
