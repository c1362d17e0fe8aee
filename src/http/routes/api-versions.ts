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
  for (const api of API_NAMES) {
    app.get(
      `/${api}/api_versions`,
      {
        schema: { response: { 200: ApiVersionInformation } },
        config: { sol013: { api, versionHeader: 'any', access: 'read' } },
      },
      async () => versionInformation(api),
    );
  }
  for (const m of API_REGISTRY) {
    app.get(
      `/${m.api}/${m.major}/api_versions`,
      {
        schema: { response: { 200: ApiVersionInformation } },
        config: { sol013: { api: m.api, major: m.major, versionHeader: 'any', access: 'read' } },
      },
      async () => versionInformation(m.api, m.major),
    );
  }
}
