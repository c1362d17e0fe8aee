/**
 * Fault management's background work, on the shared poll loop: the driver health check (every
 * fm.healthIntervalMs; off at 0), auto-heal (every worker.pollIntervalMs: due batches start
 * their heal, started ones are followed to their end) and Prometheus provisioning (every
 * fm.prometheus.syncIntervalMs, when fm.prometheus.sdDir is set). All are idempotent looks at the
 * database, so every worker process may run them; auto-heal's start is exactly once by its
 * transaction (fm/autoheal/run.ts).
 */
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import { type AutoHealDeps, autoHealLook } from '../fm/autoheal/run.ts';
import { healthLook } from '../fm/health/look.ts';
import { PrometheusProvisioner } from '../fm/prometheus/provisioner.ts';
import type { CallbackClient } from '../notify/delivery/callback-client.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { Database } from '../store/db/database.ts';
import type { VimAccess } from '../vims/access.ts';
import { PollLoop } from './poll-loop.ts';

export class FmWorkers {
  readonly name = 'fault management';
  readonly #loops: PollLoop[] = [];

  constructor(deps: {
    config: Config;
    db: Database;
    box: SealedBox;
    vims: VimAccess;
    callbacks: CallbackClient;
    logger: Logger;
  }) {
    const { config, logger } = deps;
    const autoHeal: AutoHealDeps = deps;
    this.#loops.push(
      new PollLoop({
        tick: () => autoHealLook(autoHeal),
        intervalMs: config.worker.pollIntervalMs,
        logger,
        failure: 'auto-heal look failed',
      }),
    );
    if (config.fm.healthIntervalMs > 0) {
      this.#loops.push(
        new PollLoop({
          tick: () => healthLook(deps),
          intervalMs: config.fm.healthIntervalMs,
          logger,
          failure: 'VIM health check failed',
        }),
      );
    }
    if (config.fm.prometheus.sdDir) {
      const provisioner = new PrometheusProvisioner(deps);
      this.#loops.push(
        new PollLoop({
          tick: () => provisioner.look(),
          intervalMs: config.fm.prometheus.syncIntervalMs,
          logger,
          failure: 'Prometheus provisioning look failed',
        }),
      );
    }
  }

  start(): void {
    for (const loop of this.#loops) loop.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.#loops.map((loop) => loop.stop()));
  }
}
