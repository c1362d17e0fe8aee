/** Loading a package for a request: unknown ids, malformed ids and other projects' packages are all 404. */
import type { FastifyRequest } from 'fastify';
import { findPackage, type PackageRecord } from '../../../packages/package-record.ts';
import { ApiError } from '../../../sol/problem.ts';
import { canSee } from '../../auth/caller.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loadPackage(
  request: FastifyRequest,
  id: string,
  options: { model?: boolean } = {},
): Promise<PackageRecord> {
  const found = UUID.test(id) ? await findPackage(request.server.bosun.db.kysely, id, options) : undefined;
  if (!found || !canSee(request.caller, found.projectId)) {
    throw new ApiError(404, `VNF package ${id} does not exist.`);
  }
  return found;
}

/** The ONBOARDED package with this vnfdId in the caller's project (v2 onboarded_vnf_packages). */
export async function loadByVnfdId(request: FastifyRequest, vnfdId: string): Promise<PackageRecord> {
  const { caller } = request;
  let query = request.server.bosun.db.kysely
    .selectFrom('vnf_packages')
    .select('id')
    .where('vnfd_id', '=', vnfdId)
    .where('onboarding_state', '=', 'ONBOARDED');
  query = caller.admin ? query.orderBy('id') : query.where('project_id', '=', caller.project);
  const row = await query.executeTakeFirst();
  if (!row) throw new ApiError(404, `No onboarded VNF package has vnfdId ${vnfdId}.`);
  return loadPackage(request, row.id);
}

export const pkgId = (request: FastifyRequest) => (request.params as { id: string }).id;
