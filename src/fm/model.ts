/**
 * The alarm domain's vocabulary: an alarm as the domain keeps it (AlarmRecord), what a source of
 * faults hands in to raise one (RaiseAlarmInput, a TypeBox schema so that a receiver can check
 * each mapped alert on its own and say which it refused), and the severity order escalation
 * follows.
 */
import { type Static, type TLiteral, type TUnion, Type } from '@sinclair/typebox';
import { Value, type ValueError } from '@sinclair/typebox/value';
import { EVENT_TYPES, FAULTY_RESOURCE_TYPES, type PERCEIVED_SEVERITIES } from '../notify/fm-filter.ts';
import { unprocessable } from '../sol/problem.ts';

export const ACK_STATES = ['UNACKNOWLEDGED', 'ACKNOWLEDGED'] as const;
export type AckState = (typeof ACK_STATES)[number];
export type PerceivedSeverity = (typeof PERCEIVED_SEVERITIES)[number];
export type EventType = (typeof EVENT_TYPES)[number];
export type FaultyResourceType = (typeof FAULTY_RESOURCE_TYPES)[number];

/** The severities an alarm can be raised or escalated with (CLEARED is what clearing says). */
export const RAISED_SEVERITIES = ['CRITICAL', 'MAJOR', 'MINOR', 'WARNING', 'INDETERMINATE'] as const;
export type RaisedSeverity = (typeof RAISED_SEVERITIES)[number];

/** X.733 urgency, lowest first: escalation only moves up this list. */
const URGENCY: readonly RaisedSeverity[] = ['INDETERMINATE', 'WARNING', 'MINOR', 'MAJOR', 'CRITICAL'];
export const isMoreUrgent = (proposed: RaisedSeverity, current: RaisedSeverity) =>
  URGENCY.indexOf(proposed) > URGENCY.indexOf(current);

/** An enumeration TypeBox's checker knows (a union of literals), reported by checkRaiseAlarmInput as one. */
const oneOf = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<TLiteral<T[number]>[]>;

const Id = Type.String({ minLength: 1, maxLength: 255 });
const Text = (maxLength: number) => Type.String({ maxLength });

/** SOL ResourceHandle of the faulty resource (the server, volume, port or pod). */
export const FaultyResourceSchema = Type.Object(
  {
    vimConnectionId: Type.Optional(Id),
    resourceProviderId: Type.Optional(Id),
    resourceId: Id,
    vimLevelResourceType: Type.Optional(Id),
  },
  { additionalProperties: false },
);

export const RootCauseSchema = Type.Object(
  { faultyResource: FaultyResourceSchema, faultyResourceType: oneOf(FAULTY_RESOURCE_TYPES) },
  { additionalProperties: false },
);
export type RootCauseFaultyResource = Static<typeof RootCauseSchema>;

/** What a fault source hands in to raise (or refresh) an alarm. */
export const RaiseAlarmInputSchema = Type.Object(
  {
    /** The source's dedup key, e.g. Alertmanager's fingerprint: one open alarm per key and project. */
    fingerprint: Type.String({ minLength: 1, maxLength: 255 }),
    /** The VNF instance the fault is about (the alarm's managedObjectId). */
    managedObjectId: Id,
    vnfcInstanceIds: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
    rootCauseFaultyResource: RootCauseSchema,
    perceivedSeverity: oneOf(RAISED_SEVERITIES),
    /** When the fault happened (the alert's startsAt); default: now. */
    eventTime: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    eventType: oneOf(EVENT_TYPES),
    faultType: Type.Optional(Text(1024)),
    probableCause: Type.String({ minLength: 1, maxLength: 1024 }),
    isRootCause: Type.Optional(Type.Boolean()),
    correlatedAlarmIds: Type.Optional(Type.Array(Id, { maxItems: 100 })),
    faultDetails: Type.Optional(Type.Array(Text(4096), { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type RaiseAlarmInput = Static<typeof RaiseAlarmInputSchema>;

/** Throws 422 naming the first problems unless `input` is a RaiseAlarmInput. */
export function checkRaiseAlarmInput(input: unknown): asserts input is RaiseAlarmInput {
  if (Value.Check(RaiseAlarmInputSchema, input) && validTime(input.eventTime)) return;
  const problems = [...Value.Errors(RaiseAlarmInputSchema, input)].slice(0, 3).map(describe);
  if (problems.length === 0) problems.push('/eventTime: not a date-time');
  throw unprocessable(`The alarm cannot be raised: ${problems.join('; ')}.`);
}

function describe(error: ValueError): string {
  const literals = (error.schema.anyOf as { const?: unknown }[] | undefined)?.map((s) => s.const);
  const message = literals ? `must be one of ${literals.join(', ')}` : error.message;
  return `${error.path || '/'}: ${message}`;
}

const validTime = (time: string | undefined) => time === undefined || !Number.isNaN(Date.parse(time));

/** An alarm as the domain keeps it. */
export interface AlarmRecord {
  id: string;
  projectId: string;
  fingerprint: string;
  managedObjectId: string;
  /** The LCM API major of the managed instance ('v1' | 'v2'), for its link. */
  instanceMajor: string;
  vnfcInstanceIds: string[];
  rootCauseFaultyResource: RootCauseFaultyResource;
  alarmRaisedTime: string;
  alarmChangedTime?: string;
  alarmClearedTime?: string;
  alarmAcknowledgedTime?: string;
  ackState: AckState;
  perceivedSeverity: PerceivedSeverity;
  eventTime: string;
  eventType: EventType;
  faultType?: string;
  probableCause: string;
  isRootCause: boolean;
  correlatedAlarmIds: string[];
  faultDetails: string[];
  version: number;
}

export const nowIso = () => new Date().toISOString();
