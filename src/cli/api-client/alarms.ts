/**
 * The fault management calls of the CLI: alarms through /vnffm/v1 (with its Version header), the
 * rebuild through the admin API (/bosun/v1/alarms/rebuild).
 */
import type { Alarm } from '../../fm/representation.ts';
import type { ApiClient } from './client.ts';

// What the API answers: the server's own type (erased at run time), not a copy of it.
export type { Alarm };

const ALARMS = '/vnffm/v1/alarms';
const VERSION = { version: '1.3.0' };
const one = (id: string) => `${ALARMS}/${encodeURIComponent(id)}`;

export const listAlarms = (client: ApiClient, query: URLSearchParams) => {
  const q = query.toString();
  return client.list<Alarm>(q ? `${ALARMS}?${q}` : ALARMS, VERSION);
};

export const getAlarm = (client: ApiClient, id: string) =>
  client.json<Alarm>('GET', one(id), { headers: VERSION });

export const setAckState = (client: ApiClient, id: string, ackState: 'ACKNOWLEDGED' | 'UNACKNOWLEDGED') =>
  client.json<{ ackState: string }>('PATCH', one(id), {
    headers: VERSION,
    json: { ackState },
    contentType: 'application/merge-patch+json',
  });

export const escalateAlarm = (client: ApiClient, id: string, proposedPerceivedSeverity: string) =>
  client.request('POST', `${one(id)}/escalate`, { headers: VERSION, json: { proposedPerceivedSeverity } });

export const rebuildAlarms = (client: ApiClient, project?: string) =>
  client.json<{ projects: string[]; notified: number }>('POST', '/bosun/v1/alarms/rebuild', {
    json: project ? { project } : {},
  });
