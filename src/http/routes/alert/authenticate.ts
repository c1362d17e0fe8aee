/**
 * Who posts an Alertmanager webhook: one of the receivers of fm.alertReceivers, recognised by its
 * bearer token or its Basic user and password (Alertmanager's http_config sends either). Secrets
 * are compared as SHA-256 digests in constant time, never logged nor echoed; without receivers
 * configured every call is refused, so monitoring cannot be forged by whoever reaches the port.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../../config/load.ts';
import { ApiError } from '../../../sol/problem.ts';

export type AlertReceiver = Config['fm']['alertReceivers'][number];

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

const refused = (detail: string) =>
  new ApiError(401, detail, {
    headers: { 'WWW-Authenticate': 'Bearer realm="bosun-alert", Basic realm="bosun-alert"' },
  });

/** The receiver the request's credentials belong to; 401 otherwise. */
export function alertReceiver(request: FastifyRequest, receivers: readonly AlertReceiver[]): AlertReceiver {
  if (receivers.length === 0)
    throw refused('No Alertmanager receiver is configured (fm.alertReceivers): alerts are refused.');
  const header = request.headers.authorization;
  if (!header)
    throw refused(
      'The alert webhook needs credentials: a bearer token or Basic, as configured in fm.alertReceivers.',
    );
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  let found: AlertReceiver | undefined;
  if (/^bearer$/i.test(scheme)) {
    // Every receiver is compared, so the time taken tells nothing of which one matched.
    for (const r of receivers) if (r.bearerToken !== undefined && same(r.bearerToken, value)) found ??= r;
  } else if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    const password = colon < 0 ? '' : decoded.slice(colon + 1);
    for (const r of receivers) {
      if (r.username === undefined || r.password === undefined) continue;
      if (same(r.username, user) && same(r.password, password)) found ??= r;
    }
  }
  if (!found) throw refused('The alert webhook credentials are not those of any configured receiver.');
  return found;
}
