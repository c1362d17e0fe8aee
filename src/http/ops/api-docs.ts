/**
 * GET /api-docs: the OpenAPI 3 document of every route, generated from the route schemas — the
 * same schemas that validate requests, so the document cannot drift from the behaviour.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { BOSUN_VERSION } from '../../version.ts';

/** Must run before routes are added: the generator collects them as they register. */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Bosun',
        version: BOSUN_VERSION,
        description: 'ETSI NFV-SOL APIs (SOL002, SOL003, SOL005, SOL013) served by Bosun',
      },
      components: {
        securitySchemes: {
          oauth2: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
  });
  app.get('/api-docs', { schema: { hide: true }, config: { sol013: { access: 'public' } } }, async () =>
    app.swagger(),
  );
}
