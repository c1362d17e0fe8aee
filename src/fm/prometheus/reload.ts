/**
 * Asks Prometheus to read its files again: POST {fm.prometheus.url}/-/reload (Prometheus started
 * with --web.enable-lifecycle), through the outbound policy like every call Bosun makes. Throws
 * an Error whose message says what to fix; the caller logs it and tries again later.
 */

import { NO_AUTH } from '../../notify/delivery/authentication.ts';
import type { CallbackClient } from '../../notify/delivery/callback-client.ts';

export async function reloadPrometheus(client: CallbackClient, baseUrl: string): Promise<void> {
  const url = `${baseUrl.replace(/\/+$/, '')}/-/reload`;
  const endpoint = await client.endpoint(url, NO_AUTH);
  const response = await client.send(endpoint, { method: 'POST', headers: {}, maxBodyBytes: 4096 });
  if (response.status < 200 || response.status > 299)
    throw new Error(
      `POST ${url} answered ${response.status}: ${response.body.slice(0, 300)} (is Prometheus started with --web.enable-lifecycle?)`,
    );
}
