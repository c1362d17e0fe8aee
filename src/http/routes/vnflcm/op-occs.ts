/**
 * /vnflcm/<major>/vnf_lcm_op_occs: list, show, and the tasks retry, rollback, cancel (202) and
 * fail (200 with the op occ, now FAILED). A rollback the operation cannot have (HEAL, TERMINATE,
 * SCALE_IN, …) is refused at once, with the major's status (api.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { CancelMode } from '../../../lcm/model.ts';
import type { Params } from '../../../lcm/operation-def.ts';
import { cancelOpOcc, failOpOcc, retryOpOcc, rollbackOpOcc } from '../../../lcm/service.ts';
import { ApiError } from '../../../sol/problem.ts';
import { etagOf, setEtag } from '../../sol013/etag.ts';
import { listPage, listQuerySchema, sendPage } from '../../sol013/list-query.ts';
import type { Sol013RouteConfig } from '../../sol013/route-config.ts';
import type { LcmApi } from './api.ts';
import { idParam, lcmService, loadOpOcc } from './context.ts';
import { lcmPrefix } from './views.ts';

/** The facts the operation recorded when it was accepted (whether it can be rolled back). */
const factsOf = (progress: { outputs: Record<string, unknown> }) =>
  (progress.outputs.accept as Params | undefined) ?? {};

export function mountOpOccs(app: FastifyInstance, api: LcmApi): void {
  const sol013: Sol013RouteConfig = { api: 'vnflcm', major: api.major };
  const base = `${lcmPrefix(api.major)}/vnf_lcm_op_occs`;
  const one = `${base}/:id`;
  const svc = () => lcmService(app, api.store);
  const { toOpOcc } = api.views;

  app.get(
    base,
    { schema: { querystring: listQuerySchema({ selectors: true }) }, config: { sol013 } },
    async (request, reply) => sendPage(request, reply, await listPage(request, api.opOccList)),
  );

  app.get(one, { config: { sol013 } }, async (request, reply) => {
    const { opOcc, progress } = await loadOpOcc(request, svc(), idParam(request));
    const view = toOpOcc(opOcc, request, factsOf(progress));
    setEtag(reply, etagOf(view));
    return view;
  });

  app.post(`${one}/retry`, { config: { sol013 } }, async (request, reply) => {
    const { opOcc } = await loadOpOcc(request, svc(), idParam(request));
    await retryOpOcc(svc(), opOcc.id);
    return reply.code(202).send();
  });

  app.post(`${one}/rollback`, { config: { sol013 } }, async (request, reply) => {
    const { opOcc } = await loadOpOcc(request, svc(), idParam(request));
    try {
      await rollbackOpOcc(svc(), opOcc.id);
    } catch (err) {
      // The engine refuses with 422; a major may answer otherwise.
      if (err instanceof ApiError && err.status === 422 && api.refusedRollbackStatus !== 422)
        throw new ApiError(api.refusedRollbackStatus, err.detail);
      throw err;
    }
    return reply.code(202).send();
  });

  app.post(`${one}/fail`, { config: { sol013 } }, async (request, reply) => {
    const { opOcc, progress } = await loadOpOcc(request, svc(), idParam(request));
    const failed = await failOpOcc(svc(), opOcc.id);
    return reply.code(200).send(toOpOcc(failed, request, factsOf(progress)));
  });

  app.post(
    `${one}/cancel`,
    { schema: { body: api.requests.CancelMode }, config: { sol013 } },
    async (request, reply) => {
      const { opOcc } = await loadOpOcc(request, svc(), idParam(request));
      await cancelOpOcc(svc(), opOcc.id, (request.body as { cancelMode: CancelMode }).cancelMode);
      return reply.code(202).send();
    },
  );
}
