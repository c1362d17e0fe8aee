/**
 * The engine's VIM port over the VIM registry and the infra drivers: which VIM an instance works
 * with (its vimConnectionInfo, else the project's default VIM), the VIM's availability zones (for
 * the local NFVO, from its driver), and the driver of its type. Driver failures to find a VIM
 * are refusals (422).
 */
import type { Config } from '../config/load.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import { ApiError } from '../sol/problem.ts';
import type { Database } from '../store/db/database.ts';
import { type StoredVimConnection, sealVimConnectionInfo } from './connection-info.ts';
import { type InfraDriver, InfraError, type VimConnection } from './contract.ts';
import type { VimDriverTable } from './drivers/index.ts';
import { openInterfaceSecrets } from './request-info.ts';
import { resolveVim } from './resolve.ts';

/** A VIM an operation works with. */
export interface ResolvedVim {
  /** Key of the connection in the instance's vimConnectionInfo. */
  key: string;
  /** The instance's vimConnectionInfo to store (no credentials in clear). */
  stored: Record<string, StoredVimConnection>;
  /** The connection with its credentials, for the driver (never persisted). */
  connection: VimConnection;
}

/** The engine's VIM port. */
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

export function createVimAccess(deps: {
  db: Database;
  box: SealedBox;
  config: Config;
  drivers: VimDriverTable;
}): VimAccess {
  return {
    async resolve(project, stored): Promise<ResolvedVim> {
      let connection: VimConnection;
      try {
        connection = await resolveVim(deps.db, deps.box, project, openInterfaceSecrets(deps.box, stored));
      } catch (err) {
        if (err instanceof InfraError)
          throw new ApiError(422, err.message, { extensions: { ...err.detail, infraErrorCode: err.code } });
        throw err;
      }
      const entries = Object.keys(stored);
      const kept: Record<string, StoredVimConnection> = entries.length
        ? stored
        : sealVimConnectionInfo(deps.box, {
            [connection.id]: {
              ...(connection.vimId ? { vimId: connection.vimId } : {}),
              vimType: connection.vimType,
            },
          });
      return { key: connection.id, stored: kept, connection };
    },
    zones: (vim) => deps.drivers.get(vim.vimType).zones(vim),
    driver(vimType) {
      const driver = deps.drivers.find(vimType);
      if (!driver) {
        throw new ApiError(
          422,
          `No infra driver serves VIM type ${vimType} (Bosun serves ${deps.drivers.vimTypes.join(', ')}).`,
        );
      }
      return driver;
    },
  };
}
