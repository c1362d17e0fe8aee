/**
 * On PostgreSQL, one LISTEN connection per serving process for the timeline channel: a NOTIFY
 * another process sent when it committed events of an op occ wakes this process's streams of
 * that op occ. While it is down the streams' own polling finds the events (later, never fewer).
 */
import type { Logger } from 'pino';
import { PgListener } from '../../store/db/pg-listen.ts';
import { CHANNEL, followed, followedIds, opEventsCommitted } from './signal.ts';

export class TimelineListener extends PgListener {
  constructor(url: string, logger: Logger) {
    super({
      url,
      channel: CHANNEL,
      applicationName: 'bosun-timeline-listen',
      logger,
      unavailable: 'timeline listener could not connect; event streams rely on polling',
      onMessage(opOccId) {
        if (followed(opOccId)) opEventsCommitted(opOccId);
      },
      // Events committed while not listening: the streams look again.
      onListening() {
        for (const id of followedIds()) opEventsCommitted(id);
      },
    });
  }
}
