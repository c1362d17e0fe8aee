/**
 * application/x-www-form-urlencoded bodies (RFC 6749 token requests). A repeated parameter
 * becomes an array, so the endpoint can refuse it as RFC 6749 §3.2 asks.
 */
import type { FastifyInstance } from 'fastify';

export const FORM_TYPE = 'application/x-www-form-urlencoded';

export type FormParams = Record<string, string | string[]>;

export function parseForm(body: string): FormParams {
  const params: FormParams = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}

/** Call inside an encapsulated plugin: other routes keep refusing form bodies. */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_req, body, done) =>
    done(null, parseForm(body as string)),
  );
}
