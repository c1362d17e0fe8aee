/** What a driver folder under src/vims/drivers/ exports for the driver table (index.ts). */
import type { Config } from '../../config/load.ts';
import type { Database } from '../../store/db/database.ts';
import type { InfraDriver } from '../contract.ts';

export interface DriverDeps {
  db: Database;
}

export interface DriverModule {
  /** vimType values the driver serves. */
  readonly vimTypes: readonly string[];
  /**
   * Run once per process at start: readies what the driver needs (idempotent, safe when several
   * processes start at once) and returns the driver.
   */
  prepare(config: Config, deps: DriverDeps): Promise<InfraDriver>;
}
