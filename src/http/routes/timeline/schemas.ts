/**
 * The timeline API's request and response schemas (validation and /api-docs): the events are
 * lcm/timeline/event.ts's, the same the stream sends one per `data:` line.
 */
import { Type } from '@sinclair/typebox';
import { OpEventSchema } from '../../../lcm/timeline/event.ts';

export const TimelineParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const Seq = Type.String({ pattern: '^[0-9]{1,9}$', description: 'an event number (seq)' });

export const TimelineQuery = Type.Object(
  {
    after: Type.Optional({ ...Seq, description: 'only events after this number' }),
    limit: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,4}$',
        description: 'at most this many events (1 to 1000, default 1000)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Timeline = Type.Object(
  {
    vnfLcmOpOccId: Type.String(),
    vnfInstanceId: Type.String(),
    operation: Type.String(),
    operationState: Type.String({ description: 'the state when the events were read' }),
    events: Type.Array(OpEventSchema),
    more: Type.Boolean({ description: 'more events follow: ask again with after = the last seq' }),
  },
  { description: 'the timeline of an LCM operation occurrence' },
);

export const EventsQuery = Type.Object(
  {
    lastEventId: Type.Optional({
      ...Seq,
      description: 'as the Last-Event-ID header: resume after this event',
    }),
  },
  { additionalProperties: false },
);

export const EVENT_STREAM = 'text/event-stream';

export const EventStreamDescription = `Server-sent events: one per timeline event, \`id: <seq>\` and \`data: <the event as JSON>\`
(the default message type); a \`: heartbeat\` comment now and then; \`event: end\` with \`data: {"operationState": …}\` once the
op occ is COMPLETED, FAILED, ROLLED_BACK or FAILED_TEMP and every event before it was sent. Reconnecting with the
Last-Event-ID header (or ?lastEventId=) resumes after that event, with nothing lost or repeated.`;
