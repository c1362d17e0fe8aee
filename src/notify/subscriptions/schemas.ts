/**
 * Request and response schemas of a subscription resource, built from its definition: they
 * validate the request and document both in the OpenAPI document.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { SubscriptionAuthenticationSchema } from './authentication.ts';
import { type SubscriptionApi, VERBOSITIES } from './definition.ts';
import { stringEnum } from './schema-helpers.ts';

export const CALLBACK_URI_MAX_LENGTH = 2048;

const verbosity = () =>
  Type.Optional(
    stringEnum(
      VERBOSITIES,
      'FULL (default): notifications with every detail; SHORT: without the resource changes',
    ),
  );

export function createBodySchema(definition: SubscriptionApi): TSchema {
  return Type.Object(
    {
      filter: Type.Optional(definition.filterSchema),
      callbackUri: Type.String({
        minLength: 1,
        maxLength: CALLBACK_URI_MAX_LENGTH,
        description: 'Absolute http(s) URI Bosun posts the notifications to',
      }),
      authentication: Type.Optional(SubscriptionAuthenticationSchema),
      ...(definition.verbosity ? { verbosity: verbosity() } : {}),
    },
    { additionalProperties: false, description: definition.request },
  );
}

export function representationSchema(definition: SubscriptionApi): TSchema {
  return Type.Object(
    {
      id: Type.String(),
      filter: Type.Optional(definition.filterSchema),
      callbackUri: Type.String(),
      ...(definition.verbosity === 'stored' ? { verbosity: verbosity() } : {}),
      _links: Type.Object({ self: Type.Object({ href: Type.String() }) }),
    },
    { description: definition.representation },
  );
}
