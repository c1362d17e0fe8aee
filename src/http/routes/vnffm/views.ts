/**
 * The Alarm as the API shows it: the domain's representation with its links made absolute
 * against the request (server.publicUrl when set).
 */
import type { FastifyRequest } from 'fastify';
import { type Alarm, type AlarmRecord, toAlarm } from '../../../fm/index.ts';
import { baseUrl } from '../../sol013/links.ts';

export function alarmView(record: AlarmRecord, request: FastifyRequest): Alarm {
  const alarm = toAlarm(record);
  const base = baseUrl(request);
  alarm._links = {
    self: { href: base + alarm._links.self.href },
    objectInstance: { href: base + alarm._links.objectInstance.href },
  };
  return alarm;
}
