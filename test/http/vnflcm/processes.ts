/**
 * LCM's server processes: the shared ones (test/support/processes.ts) with no simulated VIM
 * latency, and per-test BOSUN_* settings carried in the environment of the run.
 */
import type { TestDialect } from '../../support/databases.ts';
import {
  kill9,
  newServerEnv,
  type Role,
  type ServerEnv,
  serveProcess,
  stop,
} from '../../support/processes.ts';

export type { Served } from '../../support/processes.ts';
export { kill9, stop };

export interface Env extends ServerEnv {
  extra: Record<string, string>;
}

export async function newEnv(dialect: TestDialect, extra: Record<string, string> = {}): Promise<Env> {
  return { ...(await newServerEnv(dialect, 'bosun-lcm-proc-')), extra };
}

/** Starts `bosun serve --role <role>` and resolves once it listens. */
export const serve = (env: Env, role: Role) =>
  serveProcess(env, role, { BOSUN_SIM_OPERATION_DELAY_MS: '0', BOSUN_LOG_ACCESS_LOG: 'false', ...env.extra });
