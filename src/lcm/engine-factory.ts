/** The engine's ports wired to Bosun's own parts: the VIM registry and drivers, the NFVO, the hook runner. */
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import { HookRunner } from '../drivers/mgmt/hook-runner.ts';
import type { Nfvo } from '../grant/nfvo.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { Database } from '../store/db/database.ts';
import type { VimAccess } from '../vims/access.ts';
import type { EngineDeps } from './engine-deps.ts';

export function createEngineDeps(deps: {
  config: Config;
  db: Database;
  box: SealedBox;
  blobs: BlobStore;
  logger: Logger;
  /** The VIMs, built once at start (the LCM routes share them). */
  vims: VimAccess;
  /** The NFVO that grants (local or external, per nfvo.mode). */
  nfvo: Nfvo;
}): EngineDeps {
  const { config, db, box, blobs, logger, vims, nfvo } = deps;
  const { limits, ...hookConfig } = config.hooks;
  const hooks = new HookRunner({
    blobs,
    settings: {
      policy: hookConfig.policy,
      allowList: hookConfig.allowList,
      sandbox: { network: hookConfig.network, uid: hookConfig.uid, gid: hookConfig.gid, limits },
      timeoutMs: config.lcm.hookTimeoutMs,
      outputBytes: limits.outputBytes,
    },
  });
  // Said once at start: hooks would fail until the host can make the sandbox.
  if (hookConfig.policy !== 'disabled') {
    void hooks.checkSandbox().then((check) => {
      if (!check.ok) logger.error({ reason: check.reason }, 'package hooks cannot run on this host');
    });
  }
  return {
    config,
    db,
    box,
    logger,
    vims,
    nfvo,
    hooks,
  };
}
