/**
 * What the composition root gives every worker and sweep it registers (jobs/index.ts): the
 * services built once, and what only the listening server knows. Workers build nothing
 * themselves.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import type { EngineDeps } from '../lcm/engine-deps.ts';
import type { CallbackClient } from '../notify/delivery/callback-client.ts';
import type { DeliveryMetrics } from '../notify/delivery/metrics.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { Database } from '../store/db/database.ts';
import type { VimAccess } from '../vims/access.ts';

export interface JobDeps {
  config: Config;
  logger: Logger;
  db: Database;
  box: SealedBox;
  blobs: BlobStore;
  /** VIM resolution and drivers. */
  vims: VimAccess;
  /** The LCM engine's ports. */
  engine: EngineDeps;
  /** Calls to subscribers' callbacks. */
  callbacks: CallbackClient;
  deliveryMetrics: DeliveryMetrics;
  /** Base of the absolute `_links` hrefs (server.publicUrl, or the server's own URL). */
  linkBase: string;
}
