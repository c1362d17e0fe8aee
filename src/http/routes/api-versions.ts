/** `GET /{api}/api_versions` and `GET /{api}/{major}/api_versions` for every API in the registry. */
import type { FastifyInstance } from 'fastify';
import { API_NAMES, API_REGISTRY, versionInformation } from '../sol013/api-versions.ts';

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

export function registerApiVersionRoutes(app: FastifyInstance): void {
  const resources = [
    ...API_NAMES.map((api) => ({ api, major: undefined })),
    ...API_REGISTRY.map((m) => ({ api: m.api, major: m.major })),
  ];
  for (const { api, major } of resources) {
    // Computed once: the registry does not change while the server runs.
    const body = versionInformation(api, major);
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
