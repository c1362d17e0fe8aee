/**
 * The Alertmanager webhook (payload version 4) as Bosun takes it: the envelope is checked by the
 * route (an object with an `alerts` array), each alert on its own against AlertSchema, so one
 * malformed alert is refused and reported while the others of the batch are taken. Limits bound
 * what a sender can make Bosun hold: label and annotation counts and lengths.
 */
import { type Static, Type } from '@sinclair/typebox';

const Labels = (valueMax: number) =>
  Type.Record(Type.String({ maxLength: 128 }), Type.String({ maxLength: valueMax }), { maxProperties: 64 });

export const AlertSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('firing'), Type.Literal('resolved')]),
    labels: Labels(1024),
    annotations: Type.Optional(Labels(4096)),
    startsAt: Type.String({ minLength: 1, maxLength: 64 }),
    endsAt: Type.Optional(Type.String({ maxLength: 64 })),
    generatorURL: Type.Optional(Type.String({ maxLength: 4096 })),
    fingerprint: Type.String({ minLength: 1, maxLength: 128 }),
  },
  // Alertmanager adds fields over its versions: unknown ones are ignored, not refused.
  { additionalProperties: true },
);
export type Alert = Static<typeof AlertSchema>;

export const WebhookSchema = Type.Object(
  {
    version: Type.Optional(Type.String({ maxLength: 16 })),
    receiver: Type.Optional(Type.String({ maxLength: 1024 })),
    status: Type.Optional(Type.String({ maxLength: 16 })),
    alerts: Type.Array(Type.Unknown()),
  },
  { additionalProperties: true },
);
