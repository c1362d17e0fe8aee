/**
 * The VIM registry's admin API (admin only: the bosun:admin scope when authentication is on):
 *   GET    /bosun/v1/vims[?projectId=]          registered VIMs (a project's and the shared ones)
 *   POST   /bosun/v1/vims                       register (credentials sealed, never returned) once the
 *                                                VIM answered the registration check: the answer lists
 *                                                the zones it showed; 422 (the VIM refused: credentials,
 *                                                project) or 502 (not reached) and nothing stored
 *                                                otherwise; 422 for a vimType no driver serves
 *   GET    /bosun/v1/vims/{id}
 *   GET    /bosun/v1/vims/{id}/resources        the VIM's zones, hosts and capacity, read live
 *   POST   /bosun/v1/vims/{id}/default          the default VIM of a project
 *   DELETE /bosun/v1/vims/{id}                   refused (409) while VNF instances use it
 * A VIM belongs to a project (projectId, default the caller's) or to every project ('*').
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../sol/problem.ts';
import { describeRegisteredVim, registerCheckedVim } from '../../../vims/checked-registry.ts';
import {
  deleteVim,
  getVim,
  listVims,
  setDefaultVim,
  VimNameTaken,
  type VimRecord,
} from '../../../vims/registry.ts';
import { absoluteUrl } from '../../sol013/links.ts';
import { refuseWhileUsed } from '../vim-deletion.ts';

const BASE = '/bosun/v1/vims';
const sol013 = { access: 'admin' } as const;

const Project = Type.String({ minLength: 1, maxLength: 128 });
const Info = Type.Record(Type.String(), Type.Unknown());
export const NewVimBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    vimType: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+$' }),
    description: Type.Optional(Type.String({ maxLength: 1024 })),
    projectId: Type.Optional(Project),
    interfaceInfo: Type.Optional(Info),
    accessInfo: Type.Optional(Info),
    extra: Type.Optional(Info),
    isDefault: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const ListQuery = Type.Object({ projectId: Type.Optional(Project) }, { additionalProperties: false });
const DefaultBody = Type.Object({ projectId: Type.Optional(Project) }, { additionalProperties: false });

type View = VimRecord & { _links: { self: { href: string } } };

const view = (request: FastifyRequest, vim: VimRecord): View => ({
  ...vim,
  _links: { self: { href: absoluteUrl(request, `${BASE}/${vim.id}`) } },
});

const idOf = (request: FastifyRequest) => (request.params as Static<typeof IdParams>).id;
const notFound = (id: string) => new ApiError(404, `VIM ${id} does not exist.`);

export function registerVimAdmin(app: FastifyInstance): void {
  app.get(BASE, { schema: { querystring: ListQuery }, config: { sol013 } }, async (request) => {
    const { projectId } = request.query as Static<typeof ListQuery>;
    return (await listVims(request.server.bosun.db, projectId)).map((v) => view(request, v));
  });

  app.post(BASE, { schema: { body: NewVimBody }, config: { sol013 } }, async (request, reply) => {
    const body = request.body as Static<typeof NewVimBody>;
    const { db, box, vimDrivers: drivers } = request.server.bosun;
    try {
      const { record } = await registerCheckedVim(
        { db, box, drivers },
        { ...body, projectId: body.projectId ?? request.caller.project },
      );
      const shown = view(request, record);
      return reply.code(201).header('Location', shown._links.self.href).send(shown);
    } catch (error) {
      if (error instanceof VimNameTaken) throw new ApiError(409, error.message);
      throw error;
    }
  });

  app.get(`${BASE}/:id`, { schema: { params: IdParams }, config: { sol013 } }, async (request) => {
    const vim = await getVim(request.server.bosun.db, idOf(request));
    if (!vim) throw notFound(idOf(request));
    return view(request, vim);
  });

  app.get(`${BASE}/:id/resources`, { schema: { params: IdParams }, config: { sol013 } }, async (request) => {
    const { db, box, vimDrivers: drivers } = request.server.bosun;
    const vim = await getVim(db, idOf(request));
    if (!vim) throw notFound(idOf(request));
    const description = await describeRegisteredVim({ db, box, drivers }, vim.id);
    if (!description) {
      throw new ApiError(422, `The driver of VIM type ${vim.vimType} cannot read a VIM's zones and hosts.`);
    }
    return description;
  });

  app.post(
    `${BASE}/:id/default`,
    { schema: { params: IdParams, body: DefaultBody }, config: { sol013 } },
    async (request) => {
      const { db } = request.server.bosun;
      const vim = await getVim(db, idOf(request));
      if (!vim) throw notFound(idOf(request));
      const { projectId } = (request.body ?? {}) as Static<typeof DefaultBody>;
      const project = projectId ?? vim.projectId;
      if (!(await setDefaultVim(db, project, vim.id))) {
        throw new ApiError(409, `VIM ${vim.id} belongs to project ${vim.projectId}, not ${project}.`);
      }
      return view(request, { ...vim, isDefault: true });
    },
  );

  app.delete(`${BASE}/:id`, { schema: { params: IdParams }, config: { sol013 } }, async (request, reply) => {
    const id = idOf(request);
    if (!(await deleteVim(request.server.bosun.db, id, { refuse: (trx) => refuseWhileUsed(trx, id) }))) {
      throw notFound(id);
    }
    return reply.code(204).send();
  });
}
