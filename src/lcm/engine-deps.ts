/**
 * What the LCM engine needs from the rest of Bosun, as ports: the VIMs (resolution, zones, the
 * driver of a VIM type), the NFVO, the hook runner. The runtime (src/runtime.ts) wires the real
 * ones; nothing in the engine knows which VIM or NFVO it talks to.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import type { HookRunner } from '../drivers/mgmt/hook-runner.ts';
import type { Nfvo } from '../grant/nfvo.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { Database } from '../store/db/database.ts';
import type { VimAccess } from '../vims/access.ts';

/** The VIM port is the VIM capability's (src/vims/access.ts); named here with the others. */
export type { ResolvedVim, VimAccess } from '../vims/access.ts';

export interface EngineDeps {
  config: Config;
  db: Database;
  box: SealedBox;
  logger: Logger;
  vims: VimAccess;
  nfvo: Nfvo;
  hooks: HookRunner;
}
