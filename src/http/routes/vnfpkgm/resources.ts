/**
 * The vnf_packages resources, mounted once per API major with that major's representation:
 * the same handlers, the same rules, a different view.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PackageRecord } from '../../../packages/package-record.ts';
import {
  createPackage,
  deletePackage,
  modifyPackage,
  type PackageModifications,
} from '../../../packages/service.ts';
import { OPERATIONAL_STATES } from '../../../packages/states.ts';
import { ApiError } from '../../../sol/problem.ts';
import { checkIfMatch, etagOf, setEtag } from '../../sol013/etag.ts';
import { type ListResource, listPage, listQuerySchema, sendPage } from '../../sol013/list-query.ts';
import type { Sol013RouteConfig } from '../../sol013/route-config.ts';
import { loadPackage, pkgId } from './access.ts';
import { sendArtifact, sendManifest, sendPackageContent, sendVnfd } from './content.ts';
import { UploadFromUriSchema, uploadContent, uploadFromUri } from './upload.ts';

/** userDefinedData (Tacker §1.4): keys `[a-zA-Z0-9-_:. /]{1,1024}`, string values ≤ 1024. */
const KEY_PATTERN = '^[a-zA-Z0-9\\-_:. /]{1,1024}$';
// Values are checked in code (checkValues): a `type` keyword in the schema would let ajv's
// type coercion turn null (delete the key) into "".
const userDefinedData = () => ({ type: 'object', propertyNames: { pattern: KEY_PATTERN } });

function checkValues(data: Record<string, unknown> | undefined, allowNull: boolean): void {
  for (const [key, value] of Object.entries(data ?? {})) {
    if (typeof value === 'string' && value.length > 1024) {
      throw new ApiError(400, `userDefinedData/${key}: values are at most 1024 characters long.`);
    }
    if (value === null && !allowNull) throw new ApiError(400, `userDefinedData/${key}: null is not a value.`);
  }
}

const CreateSchema = {
  type: 'object',
  properties: { userDefinedData: userDefinedData() },
  additionalProperties: false,
} as const;

const ModifySchema = {
  type: 'object',
  properties: {
    operationalState: { type: 'string', enum: OPERATIONAL_STATES },
    userDefinedData: userDefinedData(),
  },
  additionalProperties: false,
  minProperties: 1,
} as const;

export interface MajorMount<View extends object> {
  prefix: string;
  sol013: Sol013RouteConfig;
  list: ListResource<never, View>;
  toView(record: PackageRecord, request: FastifyRequest): View & { _links: { self: { href: string } } };
}

const artifactPathOf = (request: FastifyRequest) => (request.params as { '*': string })['*'];

export function mountPackages<View extends object>(app: FastifyInstance, mount: MajorMount<View>): void {
  const { prefix, sol013, toView } = mount;
  const base = `${prefix}/vnf_packages`;
  const one = `${base}/:id`;
  const loadView = async (request: FastifyRequest) =>
    toView(await loadPackage(request, pkgId(request)), request);

  app.get(
    base,
    { schema: { querystring: listQuerySchema({ selectors: true }) }, config: { sol013 } },
    async (request, reply) =>
      sendPage(request, reply, await listPage(request, mount.list as ListResource<never, View>)),
  );

  app.post(base, { schema: { body: CreateSchema }, config: { sol013 } }, async (request, reply) => {
    const body = (request.body ?? {}) as { userDefinedData?: Record<string, unknown> };
    checkValues(body.userDefinedData, false);
    const record = await createPackage(
      request.server.bosun.db.kysely,
      request.caller.project,
      body.userDefinedData,
    );
    const view = toView(record, request);
    setEtag(reply, etagOf(view));
    return reply.code(201).header('Location', view._links.self.href).send(view);
  });

  app.get(one, { config: { sol013 } }, async (request, reply) => {
    const view = await loadView(request);
    setEtag(reply, etagOf(view));
    return view;
  });

  app.patch(one, { schema: { body: ModifySchema }, config: { sol013 } }, async (request, reply) => {
    const patch = request.body as PackageModifications | undefined;
    if (!patch)
      throw new ApiError(400, 'The request body is missing: send operationalState and/or userDefinedData.');
    checkValues(patch.userDefinedData, true);
    const current = await loadPackage(request, pkgId(request));
    checkIfMatch(request, etagOf(toView(current, request)));
    const changes = await modifyPackage(request.server.bosun.db, current, patch);
    setEtag(reply, etagOf(await loadView(request)));
    return reply.code(200).send(changes);
  });

  app.delete(one, { config: { sol013 } }, async (request, reply) => {
    const current = await loadPackage(request, pkgId(request));
    await deletePackage(request.server.bosun.db, request.server.bosun.blobs, current);
    return reply.code(204).send();
  });

  app.register(async (scope) => {
    // The body is streamed by the handler, never parsed.
    const raw = (_r: FastifyRequest, payload: unknown, done: (e: Error | null, v?: unknown) => void) =>
      done(null, payload);
    scope.addContentTypeParser('application/zip', raw);
    scope.addContentTypeParser('multipart/form-data', raw);
    scope.put(
      `${one}/package_content`,
      {
        config: {
          sol013: { ...sol013, consumes: ['application/zip', 'multipart/form-data'], produces: ['*/*'] },
        },
      },
      uploadContent,
    );
  });

  app.post(
    `${one}/package_content/upload_from_uri`,
    { schema: { body: UploadFromUriSchema }, config: { sol013 } },
    uploadFromUri,
  );

  mountContent(app, `${one}`, sol013, (request) => loadPackage(request, pkgId(request)));
}

/** `include_signatures` is a flag (SOL005: no value; any value is taken as present). */
const withSignaturesQuery = {
  type: 'object',
  properties: { include_signatures: { type: 'string' } },
  additionalProperties: false,
};

/** GET package_content, vnfd, manifest, artifacts/* under `path` (a package, by id or by vnfdId). */
export function mountContent(
  app: FastifyInstance,
  path: string,
  sol013: Sol013RouteConfig,
  load: (request: FastifyRequest) => Promise<PackageRecord>,
): void {
  const handle =
    (send: (q: FastifyRequest, r: FastifyReply, p: PackageRecord) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) =>
      send(request, reply, await load(request));
  app.get(
    `${path}/package_content`,
    { config: { sol013: { ...sol013, produces: ['application/zip'] } } },
    handle(sendPackageContent),
  );
  app.get(
    `${path}/vnfd`,
    {
      schema: { querystring: withSignaturesQuery },
      config: { sol013: { ...sol013, produces: ['application/zip', 'text/plain'] } },
    },
    handle(sendVnfd),
  );
  app.get(
    `${path}/manifest`,
    { schema: { querystring: withSignaturesQuery }, config: { sol013: { ...sol013, produces: ['*/*'] } } },
    handle(sendManifest),
  );
  // The Tacker client asks artifacts with Accept: application/json: serve whatever Accept says.
  app.get(
    `${path}/artifacts/*`,
    { schema: { querystring: withSignaturesQuery }, config: { sol013: { ...sol013, produces: ['*/*'] } } },
    handle((q, r, p) => sendArtifact(q, r, p, artifactPathOf(q))),
  );
}
