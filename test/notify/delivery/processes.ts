/**
 * `bosun serve` as a real subprocess for the crash and multi-worker delivery tests, with fast
 * delivery settings through BOSUN_* variables.
 */
import type { TestDialect } from '../../support/databases.ts';
import {
  newServerEnv,
  type Role,
  type Served,
  type ServerEnv,
  serveProcess,
} from '../../support/processes.ts';

export { kill9, stop } from '../../support/processes.ts';

export const newEnv = (dialect: TestDialect): Promise<ServerEnv> => newServerEnv(dialect, 'bosun-delivery-');

/** Starts `bosun serve` and resolves with its URL once it listens. */
export function serve(env: ServerEnv, role: Role, extra: Record<string, string> = {}): Promise<Served> {
  return serveProcess(env, role, {
    BOSUN_WORKER_POLL_INTERVAL_MS: '50',
    BOSUN_OUTBOUND_ALLOW: '["127.0.0.0/8"]',
    BOSUN_NOTIFY_CALLBACK_TEST: 'false',
    BOSUN_NOTIFY_INITIAL_BACKOFF_MS: '20',
    BOSUN_NOTIFY_MAX_BACKOFF_MS: '100',
    ...extra,
  });
}
