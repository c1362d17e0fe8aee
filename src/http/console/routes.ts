/**
 * Serves the built web console at /ui/: its files with their types, hashed assets cached for
 * good, precompressed variants, every other /ui/ path answered with index.html (the console's
 * own router reads the path), and `/` redirected to /ui/. Nothing here knows the console's
 * sources; it serves whatever folder the build wrote.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../sol/problem.ts';
import type { AppContext } from '../app.ts';
import { TOKEN_PATH } from '../auth/oauth2/token-endpoint.ts';
import { type BuiltConsole, type BuiltFile, DEFAULT_CONSOLE_DIR, loadBuiltConsole } from './built-files.ts';
import { chooseEncoding } from './encoding.ts';
import { CONSOLE_SECURITY_HEADERS } from './security-headers.ts';

export const UI_PREFIX = '/ui/';
/** What the console needs to know before its first API call: how to sign in. */
export const UI_SETTINGS_PATH = '/ui/settings.json';

const PUBLIC = { sol013: { access: 'public' as const, produces: ['*/*'] } };

function notBuilt(dir: string): ApiError {
  return new ApiError(
    503,
    `The web console is not built (no index.html in ${dir}): run \`npm run build:console\` in the Bosun ` +
      'checkout (or set console.dir to the folder of a built console) and restart Bosun. The APIs work without it.',
  );
}

function send(request: FastifyRequest, reply: FastifyReply, file: BuiltFile) {
  reply.headers(CONSOLE_SECURITY_HEADERS);
  reply.header('Content-Type', file.type);
  reply.header('ETag', file.etag);
  reply.header('Vary', 'Accept-Encoding');
  reply.header('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  const encoding = chooseEncoding(file, request.headers['accept-encoding']);
  if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
  return reply.send(encoding === 'br' ? file.br : encoding === 'gzip' ? file.gzip : file.body);
}

/** A path that names a file (an extension, or under assets/) is never answered with the page. */
function namesAFile(path: string): boolean {
  return path.startsWith('assets/') || /\.[a-z0-9]+$/i.test(path);
}

export function registerConsole(app: FastifyInstance, ctx: AppContext): void {
  const dir = ctx.config.console.dir || DEFAULT_CONSOLE_DIR;
  const built: BuiltConsole | undefined = loadBuiltConsole(dir);
  if (!built) {
    ctx.logger.warn({ dir }, 'the web console is not built: run `npm run build:console` to serve it at /ui/');
  }
  const settings = {
    authMode: ctx.config.auth.mode,
    tokenPath: ctx.config.auth.oauth2.builtinTokenEndpoint ? TOKEN_PATH : null,
    adminScope: ctx.config.auth.oauth2.adminScope,
  };

  app.get('/', { config: PUBLIC, schema: { hide: true } }, (_request, reply) =>
    reply.redirect(UI_PREFIX, 302),
  );
  app.get('/ui', { config: PUBLIC, schema: { hide: true } }, (_request, reply) =>
    reply.redirect(UI_PREFIX, 302),
  );
  app.get(UI_SETTINGS_PATH, { config: PUBLIC, schema: { hide: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return settings;
  });
  app.get<{ Params: { '*': string } }>(
    `${UI_PREFIX}*`,
    { config: PUBLIC, schema: { hide: true } },
    (request, reply) => {
      if (!built) throw notBuilt(dir);
      const path = request.params['*'];
      const file = built.files.get(path === '' ? 'index.html' : path);
      if (file) return send(request, reply, file);
      if (namesAFile(path)) {
        throw new ApiError(
          404,
          `The console has no file '${path}': reload ${UI_PREFIX} (a newer build may have replaced it).`,
        );
      }
      return send(request, reply, built.index);
    },
  );
}
