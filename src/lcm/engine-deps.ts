/**
 * What the LCM engine needs from the rest of Bosun, as ports: the VIMs (resolution, zones, the
 * driver of a VIM type), the NFVO, the hook runner. The server wires the real ones; nothing in the
 * engine knows which VIM or NFVO it talks to.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import type { HookRunner } from '../drivers/mgmt/hook-runner.ts';
import type { Nfvo } from '../grant/nfvo.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { Database } from '../store/db/database.ts';
import type { InfraDriver, VimConnection } from '../vims/contract.ts';
import type { StoredVimConnection } from './model.ts';

export interface ResolvedVim {
  /** Key of the connection in the instance's vimConnectionInfo. */
  key: string;
  /** The instance's vimConnectionInfo to store (no credentials in clear). */
  stored: Record<string, StoredVimConnection>;
  /** The connection with its credentials, for the driver (never persisted). */
  connection: VimConnection;
}

export interface VimAccess {
  /**
   * The VIM an instance works with: the first entry of `stored` (its vimConnectionInfo, which
   * references registered VIMs or carries sealed credentials), else the project's default VIM.
   * Throws ApiError 422 when there is none.
   */
  resolve(project: string, stored: Record<string, StoredVimConnection>): Promise<ResolvedVim>;
  /** Availability zone names of the VIM. */
  zones(connection: VimConnection): Promise<string[]>;
  /** The infra driver serving `vimType`; throws ApiError 422 when none does. */
  driver(vimType: string): InfraDriver;
}

export interface EngineDeps {
  config: Config;
  db: Database;
  box: SealedBox;
  logger: Logger;
  vims: VimAccess;
  nfvo: Nfvo;
  hooks: HookRunner;
}
