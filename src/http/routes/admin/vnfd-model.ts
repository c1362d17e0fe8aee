/**
 * GET /bosun/v1/vnf_packages/{id}/vnfd_model: the typed VNFD model Bosun read from an onboarded
 * package (flavours, VDUs with their instance ranges, scaling aspects, instantiation levels,
 * placement rules, hooks, images, artifacts, each with the file and line it was written at) —
 * what the web console draws its VNFD viewer and LCM forms from, so that the browser never
 * parses TOSCA. Readable with the package API's scopes, in the package's project only.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { refusalOf } from '../../../packages/states.ts';
import { ApiError } from '../../../sol/problem.ts';
import { loadPackage, pkgId } from '../vnfpkgm/access.ts';

export const VNFD_MODEL_PATH = '/bosun/v1/vnf_packages/:id/vnfd_model';

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function registerVnfdModel(app: FastifyInstance): void {
  app.get(
    VNFD_MODEL_PATH,
    {
      schema: { params: IdParams, hide: true },
      config: { sol013: { access: 'read', scopesOf: 'vnfpkgm' } },
    },
    async (request) => {
      const record = await loadPackage(request, pkgId(request), { model: true });
      const refusal = refusalOf('fetchContent', record.onboardingState, record.id);
      if (refusal) throw new ApiError(409, refusal);
      if (!record.vnfdModel) {
        throw new ApiError(
          500,
          `VNF package ${record.id} is onboarded but its VNFD model is missing; upload the package again as a new package.`,
        );
      }
      return record.vnfdModel;
    },
  );
}
