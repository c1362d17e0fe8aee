/**
 * Creating a subscription, the same way for every API: the filter's extra checks, the callback
 * URI and authentication checks (outbound policy), the duplicate rule, the SOL013 callback test
 * (GET expecting 204, by the delivery engine) and the race-free insert.
 */
import type { Config } from '../../config/load.ts';
import { OutboundPolicy } from '../../net/address-policy.ts';
import type { SealedBox } from '../../security/sealed-box.ts';
import { ApiError } from '../../sol/problem.ts';
import type { Executor } from '../../store/db/transaction.ts';
import type { CallbackClient } from '../delivery/callback-client.ts';
import { CallbackTestError, testCallback } from '../delivery/callback-test.ts';
import {
  createOrFindDuplicate,
  findDuplicate,
  type NewSubscription,
  type SubscriptionRecord,
} from '../subscription-store.ts';
import { checkAuthentication, type SubscriptionAuthentication } from './authentication.ts';
import { checkOutboundUri } from './callback-uri.ts';
import type { SubscriptionApi } from './definition.ts';

export interface SubscriptionRequest {
  filter?: Record<string, unknown>;
  callbackUri: string;
  authentication?: SubscriptionAuthentication;
  verbosity?: string;
}

export interface SubscribeContext {
  config: Config;
  db: Executor;
  box: SealedBox;
  /** The runtime's callback client, for the callback test. */
  callbacks: CallbackClient;
}

/** `created: false`: an identical subscription exists (duplicates refused), `record` is that one. */
export async function subscribe(
  context: SubscribeContext,
  definition: SubscriptionApi,
  projectId: string,
  body: SubscriptionRequest,
): Promise<{ created: boolean; record: SubscriptionRecord }> {
  const problem = body.filter && definition.filterProblem?.(body.filter as never);
  if (problem) throw new ApiError(400, `Invalid filter: ${problem}.`);
  const policy = OutboundPolicy.fromConfig(context.config);
  await checkOutboundUri('callbackUri', body.callbackUri, policy);
  await checkAuthentication(body.authentication, policy);
  const wanted: NewSubscription = {
    projectId,
    api: definition.api,
    major: definition.major,
    callbackUri: body.callbackUri,
    filter: body.filter,
    authentication: body.authentication,
    ...(definition.verbosity === 'stored' ? { verbosity: body.verbosity ?? 'FULL' } : {}),
  };
  const duplicates = context.config.subscriptions.duplicates;
  if (duplicates === 'see-other') {
    const existing = await findDuplicate(context.db, wanted);
    if (existing) return { created: false, record: existing };
  }
  try {
    await testCallback(
      { config: context.config, callbacks: context.callbacks },
      {
        api: definition.api,
        major: definition.major,
        callbackUri: body.callbackUri,
        authentication: body.authentication,
      },
    );
  } catch (error) {
    if (error instanceof CallbackTestError) throw new ApiError(422, error.message);
    throw error;
  }
  return createOrFindDuplicate(context.db, context.box, wanted, duplicates);
}
