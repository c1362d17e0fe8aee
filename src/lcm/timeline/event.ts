/**
 * The events of an op occ's timeline, as the API serves them (`GET …/timeline`, the SSE stream of
 * `…/events`) and as the engine records them: one TypeBox schema, so /api-docs documents exactly
 * what is sent. Every event has its number (`seq`, increasing, the stream's event id), its time
 * and its kind; the rest depends on the kind.
 */
import { type Static, Type } from '@sinclair/typebox';

const Common = {
  seq: Type.Integer({ minimum: 1, description: 'increasing per op occ; the SSE event id' }),
  at: Type.String({ description: 'when it happened (ISO 8601)' }),
};

const Status = Type.Union([Type.Literal('started'), Type.Literal('finished'), Type.Literal('failed')]);

export const StateEvent = Type.Object(
  {
    ...Common,
    kind: Type.Literal('state'),
    state: Type.String({ description: 'the operationState entered' }),
  },
  { description: 'the op occ entered a state (STARTING, PROCESSING, FAILED_TEMP, COMPLETED, ROLLING_BACK…)' },
);

export const StepEvent = Type.Object(
  {
    ...Common,
    kind: Type.Literal('step'),
    step: Type.String({
      description:
        'grant, start-hook, infra, end-hook; rollback-start-hook, rollback-infra, rollback-end-hook during a rollback',
    }),
    status: Status,
    hook: Type.Optional(Type.String({ description: 'the Vnflcm hook a hook step runs' })),
    durationMs: Type.Optional(Type.Integer({ minimum: 0 })),
    detail: Type.Optional(Type.String({ description: 'why it failed' })),
  },
  { description: 'a step of the operation started, finished or failed' },
);

export const DriverEvent = Type.Object(
  {
    ...Common,
    kind: Type.Literal('driver'),
    hook: Type.String(),
    phase: Type.String({
      description: "what the management driver does, e.g. 'command on VDU1-… at 10.0.0.5'",
    }),
    status: Status,
    vnfcId: Type.Optional(Type.String()),
    durationMs: Type.Optional(Type.Integer({ minimum: 0 })),
    detail: Type.Optional(Type.String()),
  },
  { description: 'a phase of a management driver started, finished or failed' },
);

export const OutputEvent = Type.Object(
  {
    ...Common,
    kind: Type.Literal('output'),
    hook: Type.String(),
    stream: Type.Union([Type.Literal('stdout'), Type.Literal('stderr')]),
    line: Type.String(),
    vnfcId: Type.Optional(Type.String()),
  },
  { description: 'a line a management driver (or a hook script, on stderr) wrote' },
);

export const PlacementEvent = Type.Object(
  {
    ...Common,
    kind: Type.Literal('placement'),
    zone: Type.String({ description: 'the zone that had no room' }),
    reason: Type.String({ description: "the VIM's reason" }),
    vnfcId: Type.Optional(Type.String()),
    vduId: Type.Optional(Type.String()),
    next: Type.Array(Type.Object({ vnfcId: Type.String(), vduId: Type.String(), zone: Type.String() }), {
      description: 'where the VNFCs granted that zone go next; empty when the operation stops',
    }),
    notes: Type.Optional(Type.Array(Type.String())),
    stopped: Type.Optional(Type.String({ description: 'why no other zone is tried' })),
  },
  { description: 'a zone reselection attempt: a zone had no room for a server' },
);

export const ErrorEvent = Type.Object(
  {
    ...Common,
    kind: Type.Literal('error'),
    error: Type.Record(Type.String(), Type.Unknown(), { description: 'the ProblemDetails the op occ shows' }),
  },
  { description: 'the operation failed with this error' },
);

export const TruncatedEvent = Type.Object(
  {
    ...Common,
    kind: Type.Literal('truncated'),
    detail: Type.String(),
  },
  { description: 'output lines beyond the bound of an op occ are no longer recorded' },
);

export const OpEventSchema = Type.Union(
  [StateEvent, StepEvent, DriverEvent, OutputEvent, PlacementEvent, ErrorEvent, TruncatedEvent],
  { description: 'one event of an op occ timeline' },
);
export type OpEvent = Static<typeof OpEventSchema>;

/** An event before it is numbered and stamped. */
export type NewOpEvent = OpEvent extends infer E
  ? E extends OpEvent
    ? Omit<E, 'seq' | 'at'> & { at?: string }
    : never
  : never;

export const OP_EVENT_KINDS = [
  'state',
  'step',
  'driver',
  'output',
  'placement',
  'error',
  'truncated',
] as const;
export type OpEventKind = (typeof OP_EVENT_KINDS)[number];
