/** What a driver folder under src/vims/drivers/ exports for the driver table (index.ts). */
import type { Config } from '../../config/load.ts';
import type { BlobStore } from '../../store/blobs/blob-store.ts';
import type { Database } from '../../store/db/database.ts';
import type { InfraDriver, VimConnection } from '../contract.ts';
import type { VimDescription } from '../description.ts';

export interface DriverDeps {
  db: Database;
  /** Package blobs (drivers that upload a package's images to the VIM read them here). */
  blobs?: BlobStore;
}

export interface DriverModule {
  /** vimType values the driver serves. */
  readonly vimTypes: readonly string[];
  /**
   * Run once per process at start: readies what the driver needs (idempotent, safe when several
   * processes start at once) and returns the driver.
   */
  prepare(config: Config, deps: DriverDeps): Promise<InfraDriver>;
  /**
   * Asks the VIM, with the connection's credentials, for its zones, hosts and capacity; throws
   * (InfraError, ApiError) with the VIM's own reason when it cannot (wrong credentials, unknown
   * project, unreachable, TLS). A driver without it registers VIMs unchecked.
   */
  describe?(vim: VimConnection, config: Config, deps: DriverDeps): Promise<VimDescription>;
}
