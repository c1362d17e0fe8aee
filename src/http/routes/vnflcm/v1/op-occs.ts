/**
 * /vnflcm/v1/vnf_lcm_op_occs (SOL003 v2.6.1): list, show, and the tasks retry, rollback, cancel
 * (202) and fail (200 with the op occ, now FAILED).
 *
 * A rollback the operation cannot have (HEAL, TERMINATE, SCALE_IN, …) is refused at once, as on
 * /vnflcm/v2 — with 409 here, as Tacker's v1 API answers it (v2 says 422). `vnflcm op cancel`
 * of the Tacker client sends no Version header: the header is optional on v1.
 */
import type { FastifyInstance } from 'fastify';
import type { CancelMode } from '../../../../lcm/model.ts';
import type { Params } from '../../../../lcm/operation-def.ts';
import { cancelOpOcc, failOpOcc, retryOpOcc, rollbackOpOcc } from '../../../../lcm/service.ts';
import { etagOf, setEtag } from '../../../sol013/etag.ts';
import { listPage, listQuerySchema, sendPage } from '../../../sol013/list-query.ts';
import { ApiError } from '../../../sol013/problem.ts';
import type { Sol013RouteConfig } from '../../../sol013/route-config.ts';
import { idParam, lcmServiceV1, loadOpOcc } from './context.ts';
import { opOccListV1 } from './lists.ts';
import { REQUESTS } from './requests/index.ts';
import { PREFIX, toOpOccV1 } from './views.ts';

const sol013: Sol013RouteConfig = { api: 'vnflcm', major: 'v1' };

export function mountOpOccsV1(app: FastifyInstance): void {
  const base = `${PREFIX}/vnf_lcm_op_occs`;
  const one = `${base}/:id`;
  const svc = () => lcmServiceV1(app);
  const list = opOccListV1(svc().store);
  const factsOf = (progress: { outputs: Record<string, unknown> }) =>
    (progress.outputs.accept as Params | undefined) ?? {};

  app.get(
    base,
    { schema: { querystring: listQuerySchema({ selectors: true }) }, config: { sol013 } },
    async (request, reply) => sendPage(request, reply, await listPage(request, list)),
  );

  app.get(one, { config: { sol013 } }, async (request, reply) => {
    const { opOcc, progress } = await loadOpOcc(request, svc(), idParam(request));
    const view = toOpOccV1(opOcc, request, factsOf(progress));
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
      if (err instanceof ApiError && err.status === 422) throw new ApiError(409, err.detail);
      throw err;
    }
    return reply.code(202).send();
  });

  app.post(`${one}/fail`, { config: { sol013 } }, async (request, reply) => {
    const { opOcc, progress } = await loadOpOcc(request, svc(), idParam(request));
    const failed = await failOpOcc(svc(), opOcc.id);
    return reply.code(200).send(toOpOccV1(failed, request, factsOf(progress)));
  });

  app.post(
    `${one}/cancel`,
    { schema: { body: REQUESTS.CancelMode }, config: { sol013 } },
    async (request, reply) => {
      const { opOcc } = await loadOpOcc(request, svc(), idParam(request));
      await cancelOpOcc(svc(), opOcc.id, (request.body as { cancelMode: CancelMode }).cancelMode);
      return reply.code(202).send();
    },
  );
}
