/**
 * `GET /{api}/api_versions` and `GET /{api}/{major}/api_versions` for every API major of the
 * registry that this process actually serves (a route under `/{api}/{major}/`): a worker-role
 * process, or an API whose routes are not mounted, lists nothing it would answer 404 for.
 */
import type { FastifyInstance } from 'fastify';
import { API_REGISTRY, type ApiMajor, versionInformation } from '../../sol/api-versions.ts';

const ApiVersionInformation = {
  type: 'object',
  properties: {
    uriPrefix: { type: 'string' },
    apiVersions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          version: { type: 'string' },
          isDeprecated: { type: 'boolean' },
          retirementDate: { type: 'string' },
        },
        required: ['version', 'isDeprecated'],
      },
    },
  },
  required: ['uriPrefix', 'apiVersions'],
} as const;

/** Records the majors routes are added under; call before any route is registered. */
export function trackServedMajors(app: FastifyInstance): () => ApiMajor[] {
  const served = new Set<ApiMajor>();
  app.addHook('onRoute', (route) => {
    const major = API_REGISTRY.find((m) => route.url.startsWith(`/${m.api}/${m.major}/`));
    if (major) served.add(major);
  });
  return () => API_REGISTRY.filter((m) => served.has(m));
}

export function registerApiVersionRoutes(app: FastifyInstance, served: readonly ApiMajor[]): void {
  const resources = [
    ...[...new Set(served.map((m) => m.api))].map((api) => ({ api, major: undefined })),
    ...served.map((m) => ({ api: m.api, major: m.major })),
  ];
  for (const { api, major } of resources) {
    // Computed once: what is served does not change while the server runs.
    const body = versionInformation(api, major, served);
    app.get(
      `${body.uriPrefix}/api_versions`,
      {
        schema: { response: { 200: ApiVersionInformation } },
        config: { sol013: { api, major, versionHeader: 'any', access: 'read' } },
      },
      async () => body,
    );
  }
}
