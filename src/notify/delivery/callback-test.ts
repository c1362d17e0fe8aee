/**
 * The SOL013 callback test — a GET to the callback URI, with the subscription's authentication,
 * expecting 204 — run before a subscription is stored (when notify.callbackTest is on) and on
 * demand by the admin API. Throws CallbackTestError with a message the subscriber can act on.
 */
import type { Config } from '../../config/load.ts';
import { describeUrl } from '../../net/pinned-request.ts';
import { AuthenticationParamsError, type DeliveryAuth, parseAuthentication } from './authentication.ts';
import { CallError } from './call-error.ts';
import type { CallbackClient } from './callback-client.ts';
import { callbackHeaders } from './headers.ts';

export interface CallbackTarget {
  api: string;
  major: string;
  callbackUri: string;
  /** The SOL013 SubscriptionAuthentication as the client sent it (plaintext, not yet sealed). */
  authentication?: Record<string, unknown>;
}

export class CallbackTestError extends Error {
  override name = 'CallbackTestError';
}

export interface CallbackTestContext {
  config: Config;
  /** The runtime's callback client. */
  callbacks: CallbackClient;
}

/** Resolves when the callback answered the GET test as SOL013 requires (or the test is disabled). */
export async function testCallback(context: CallbackTestContext, target: CallbackTarget): Promise<void> {
  if (!context.config.notify.callbackTest) return;
  await runCallbackTest(context.callbacks, target);
}

/** The test itself, whatever notify.callbackTest says (the admin API runs it on request). */
export async function runCallbackTest(client: CallbackClient, target: CallbackTarget): Promise<void> {
  let auth: DeliveryAuth;
  try {
    auth = parseAuthentication(target.authentication);
  } catch (error) {
    if (error instanceof AuthenticationParamsError) throw new CallbackTestError(error.message);
    throw error;
  }
  try {
    const endpoint = await client.endpoint(target.callbackUri, auth);
    const response = await client.send(endpoint, {
      method: 'GET',
      headers: callbackHeaders(target.api, target.major, false),
    });
    if (response.status !== 204) {
      throw new CallbackTestError(
        `the callback test failed: GET ${describeUrl(endpoint.url)} answered HTTP ${response.status}` +
          `${statusHint(response.status, auth)}; SOL013 requires 204 No Content`,
      );
    }
  } catch (error) {
    if (error instanceof CallError) throw new CallbackTestError(`the callback test failed: ${error.message}`);
    throw error;
  }
}

function statusHint(status: number, auth: DeliveryAuth): string {
  if (status !== 401 && status !== 403) return '';
  return auth.header.kind === 'none' && !auth.tls?.cert
    ? ' (the receiver wants credentials: give authentication)'
    : ' (the receiver refused the credentials of authentication)';
}
