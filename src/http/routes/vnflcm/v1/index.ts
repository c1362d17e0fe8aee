/**
 * /vnflcm/v1 (SOL002/SOL003 v2.6.1, API version 1.3.0): VNF instances and LCM operation
 * occurrences in their own tables, on the same engine as /vnflcm/v2. Requests are validated with
 * the 1.3.0 schemas, then turned into the engine's shapes (./shapes.ts).
 *
 * Status codes follow Tacker's v1 API (reference §1.6) where it is right: an unknown vnfdId on
 * create is 404, a rollback the operation cannot have is 409 (v2 says 422). Where Tacker is wrong
 * Bosun does better: ETag and If-Match (412) on the instance, every refusal is a ProblemDetails.
 * `vnflcm op cancel` of the Tacker client sends no Version header: the header is optional on v1.
 */
import { packageByVnfdId } from '../../../../lcm/packages.ts';
import { LCM_V1 } from '../../../../lcm/store.ts';
import { ApiError } from '../../../../sol/problem.ts';
import { lcmApi } from '../api.ts';
import { INSTANCE_ATTRIBUTES_V1, OP_OCC_ATTRIBUTES_V1 } from './lists.ts';
import { REQUESTS } from './requests/index.ts';
import { engineRequestOf } from './shapes.ts';
import { viewsV1 } from './views.ts';

export const LCM_API_V1 = lcmApi({
  major: 'v1',
  store: LCM_V1,
  requests: REQUESTS,
  views: viewsV1,
  instanceAttributes: INSTANCE_ATTRIBUTES_V1,
  opOccAttributes: OP_OCC_ATTRIBUTES_V1,
  toEngine: engineRequestOf,
  async checkCreate(svc, request, body) {
    if (!(await packageByVnfdId(svc.db.kysely, request.caller.project, body.vnfdId as string))) {
      throw new ApiError(404, `No ONBOARDED VNF package has vnfdId ${body.vnfdId}.`);
    }
  },
  async modifyRequest(svc, instance, request) {
    if (request.vnfPkgId === undefined) return request;
    // Tacker v1: the target named by its package; the engine works with its vnfdId.
    const { vnfPkgId, ...body } = request;
    const pkg = await svc.db.kysely
      .selectFrom('vnf_packages')
      .select(['vnfd_id', 'onboarding_state'])
      .where('id', '=', vnfPkgId as string)
      .where('project_id', '=', instance.projectId)
      .executeTakeFirst();
    if (!pkg?.vnfd_id || pkg.onboarding_state !== 'ONBOARDED') {
      throw new ApiError(422, `No ONBOARDED VNF package has id ${vnfPkgId}.`);
    }
    if (body.vnfdId !== undefined && body.vnfdId !== pkg.vnfd_id) {
      throw new ApiError(
        400,
        `vnfdId ${body.vnfdId} and vnfPkgId ${vnfPkgId} (vnfdId ${pkg.vnfd_id}) name different VNFDs.`,
      );
    }
    return { ...body, vnfdId: pkg.vnfd_id };
  },
  refusedRollbackStatus: 409,
});
