/**
 * Tacker's legacy VIM API, the subset `openstack vim register|list|show|set|delete` calls, on
 * Bosun's VIM registry (the client adds `.json` to every path):
 *   GET    /v1.0/vims[.json][?id=&name=&tenant_id=&type=&status=&is_default=&fields=]  {"vims": [...]}
 *   POST   /v1.0/vims[.json]             {"vim": {...}} → 201; checked against the VIM first (422
 *                                         refused, 502 not reached, nothing stored)
 *   GET    /v1.0/vims/{id}[.json]        {"vim": {...}}
 *   PUT    /v1.0/vims/{id}[.json]        name, description, is_default, new project/credentials
 *                                         (checked before they replace the old ones) → 200
 *   DELETE /v1.0/vims/{id}[.json]        204; 409 while VNF instances use it
 * A caller sees its project's VIMs and the shared ones, and changes only its project's (an
 * administrator: every project's). A VIM registered with is_default is its project's default
 * VIM for LCM. The vnflcm scopes allow these routes (all: write, readonly: read) when
 * authentication is on. Passwords are sealed and never returned.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../sol/problem.ts';
import { registerCheckedVim, updateCheckedVim } from '../../../vims/checked-registry.ts';
import {
  deleteVim,
  listVims,
  type OpenedVim,
  openVim,
  ownDefaultVimId,
  SHARED_PROJECT,
  VimNameTaken,
} from '../../../vims/registry.ts';
import { type Caller, visibleProject } from '../../auth/caller.ts';
import { absoluteUrl } from '../../sol013/links.ts';
import { refuseWhileUsed } from '../vim-deletion.ts';
import { connectionOf, type LegacyVimView, legacyView } from './vim-legacy.ts';
import {
  CreateVimBody,
  LEGACY_TYPES,
  type ListVims,
  ListVimsQuery,
  type UpdateVim,
  UpdateVimBody,
} from './vim-shapes.ts';

const BASE = '/v1.0/vims';
const read = { access: 'read', scopesOf: 'vnflcm' } as const;
const write = { access: 'write', scopesOf: 'vnflcm' } as const;
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const FIELDS: readonly (keyof LegacyVimView)[] = [
  'id',
  'type',
  'tenant_id',
  'name',
  'description',
  'placement_attr',
  'auth_url',
  'vim_project',
  'auth_cred',
  'status',
  'is_default',
  'shared',
  'created_at',
  'updated_at',
  'extra',
];

/** The VIM id of `/v1.0/vims/{id}` or `/v1.0/vims/{id}.json`. */
const idOf = (request: FastifyRequest) =>
  (request.params as Static<typeof IdParams>).id.replace(/\.json$/, '');
const notFound = (id: string) => new ApiError(404, `VIM ${id} does not exist.`);

async function visibleVim(request: FastifyRequest): Promise<OpenedVim> {
  const { db, box } = request.server.bosun;
  const id = idOf(request);
  const vim = await openVim(db, box, id, visibleProject(request.caller));
  if (!vim) throw notFound(id);
  return vim;
}

/** The VIM, when the caller may change it: its project's, or any for an administrator. */
async function ownVim(request: FastifyRequest): Promise<OpenedVim> {
  const vim = await visibleVim(request);
  if (!request.caller.admin && vim.record.projectId === SHARED_PROJECT) {
    throw new ApiError(
      403,
      `VIM ${vim.record.id} is shared by every project: only an administrator changes it.`,
    );
  }
  return vim;
}

function projectFor(caller: Caller, tenantId: string | undefined): string {
  if (tenantId === undefined || tenantId === caller.project) return caller.project;
  if (caller.admin) return tenantId;
  throw new ApiError(
    403,
    `tenant_id ${tenantId} is not your project (${caller.project}): register VIMs in your own project.`,
  );
}

/** Tacker's rule: a project has one default VIM, and another is made default only once it is not. */
async function refuseSecondDefault(request: FastifyRequest, project: string, vimId?: string): Promise<void> {
  const current = await ownDefaultVimId(request.server.bosun.db.kysely, project);
  if (!current || current === vimId) return;
  throw new ApiError(
    409,
    `Project ${project} already has a default VIM (${current}): make it non-default first ` +
      `(openstack vim set ${current} --is-default False), then try again.`,
    { extensions: { defaultVimId: current } },
  );
}

function selected(view: LegacyVimView, fields: readonly string[] | undefined): Partial<LegacyVimView> {
  if (!fields) return view;
  return Object.fromEntries(fields.map((f) => [f, view[f as keyof LegacyVimView]]));
}

function fieldsOf(query: ListVims): string[] | undefined {
  if (query.fields === undefined) return undefined;
  const fields = query.fields.split(',').map((f) => f.trim());
  const unknown = fields.filter((f) => !FIELDS.includes(f as keyof LegacyVimView));
  if (unknown.length) {
    throw new ApiError(
      400,
      `fields names ${unknown.join(', ')}, which a VIM does not have: it has ${FIELDS.join(', ')}.`,
    );
  }
  return fields;
}

/** Tacker's list filters: every given attribute equals its value (is_default: true/false). */
function matches(view: LegacyVimView, query: ListVims): boolean {
  const { fields: _fields, is_default: isDefault, ...equal } = query;
  if (isDefault !== undefined && String(view.is_default) !== isDefault.toLowerCase()) return false;
  return Object.entries(equal).every(([key, value]) => view[key as keyof typeof equal] === value);
}

/** Tacker's type name, or a vimType as the list shows it for the others (e.g. BOSUN.SIM.V1). */
const vimTypeOf = (type: string | undefined) => LEGACY_TYPES[type ?? 'openstack'] ?? (type as string);

function refuseReadOnly(body: UpdateVim): void {
  const fixed = (['auth_url', 'type', 'tenant_id'] as const).filter((k) => body[k] !== undefined);
  if (fixed.length) {
    throw new ApiError(
      400,
      `${fixed.join(', ')} of a VIM cannot change: register a new VIM (and delete this one) instead.`,
    );
  }
}

const asTaken = (error: unknown) =>
  error instanceof VimNameTaken ? new ApiError(409, error.message) : error;

export function registerTackerLegacyVims(app: FastifyInstance): void {
  for (const url of [BASE, `${BASE}.json`]) {
    app.get(url, { schema: { querystring: ListVimsQuery }, config: { sol013: read } }, async (request) => {
      const { db, box } = request.server.bosun;
      const query = request.query as ListVims;
      const fields = fieldsOf(query);
      const project = visibleProject(request.caller);
      const views: LegacyVimView[] = [];
      for (const record of await listVims(db, project)) {
        const vim = await openVim(db, box, record.id, project);
        if (vim) views.push(legacyView(vim));
      }
      return { vims: views.filter((v) => matches(v, query)).map((v) => selected(v, fields)) };
    });

    app.post(url, { schema: { body: CreateVimBody }, config: { sol013: write } }, async (request, reply) => {
      const { db, box, vimDrivers: drivers } = request.server.bosun;
      const body = (request.body as Static<typeof CreateVimBody>).vim;
      const projectId = projectFor(request.caller, body.tenant_id);
      const vimType = vimTypeOf(body.type);
      if (body.is_default) await refuseSecondDefault(request, projectId);
      const { record } = await registerCheckedVim(
        { db, box, drivers },
        {
          projectId,
          name: body.name,
          vimType,
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...connectionOf(body),
          ...(body.extra ? { extra: body.extra } : {}),
          isDefault: body.is_default === true,
        },
      ).catch((error: unknown) => {
        throw asTaken(error);
      });
      const vim = await openVim(db, box, record.id);
      if (!vim) throw notFound(record.id);
      return reply
        .code(201)
        .header('Location', absoluteUrl(request, `${BASE}/${record.id}`))
        .send({ vim: legacyView(vim) });
    });
  }

  {
    const url = `${BASE}/:id`;
    app.get(url, { schema: { params: IdParams }, config: { sol013: read } }, async (request) => ({
      vim: legacyView(await visibleVim(request)),
    }));

    app.put(
      url,
      { schema: { params: IdParams, body: UpdateVimBody }, config: { sol013: write } },
      async (request) => {
        const { db, box, vimDrivers: drivers } = request.server.bosun;
        const body = (request.body as Static<typeof UpdateVimBody>).vim;
        refuseReadOnly(body);
        const current = await ownVim(request);
        if (body.is_default === true)
          await refuseSecondDefault(request, current.record.projectId, current.record.id);
        const reconnects = body.vim_project !== undefined || body.auth_cred !== undefined;
        const updated = await updateCheckedVim(
          { db, box, drivers },
          current,
          {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            ...(reconnects ? connectionOf(body, current) : {}),
            ...(body.is_default !== undefined ? { isDefault: body.is_default } : {}),
          },
          visibleProject(request.caller),
        ).catch((error: unknown) => {
          throw asTaken(error);
        });
        const vim = updated && (await openVim(db, box, updated.record.id));
        if (!vim) throw notFound(current.record.id);
        return { vim: legacyView(vim) };
      },
    );

    app.delete(url, { schema: { params: IdParams }, config: { sol013: write } }, async (request, reply) => {
      const vim = await ownVim(request);
      const id = vim.record.id;
      const deleted = await deleteVim(request.server.bosun.db, id, {
        project: visibleProject(request.caller),
        refuse: (trx) => refuseWhileUsed(trx, id),
      });
      if (!deleted) throw notFound(id);
      return reply.code(204).send();
    });
  }
}
