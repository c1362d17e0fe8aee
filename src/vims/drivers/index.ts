/**
 * The driver table: every driver module Bosun has (one folder each), prepared once per process
 * into the drivers by the vimType they serve. The LCM engine asks it for the driver of an
 * instance's VIM; a vimType no driver serves is an InfraError (INVALID_REQUEST).
 */
import type { Config } from '../../config/load.ts';
import { type InfraDriver, InfraError } from '../contract.ts';
import type { DriverDeps, DriverModule } from './module.ts';
import { simDriver } from './sim/index.ts';

/** OpenStack and Kubernetes come next. */
const DRIVER_MODULES: readonly DriverModule[] = [simDriver];

export class VimDriverTable {
  readonly #byType = new Map<string, InfraDriver>();

  constructor(drivers: readonly { vimTypes: readonly string[]; driver: InfraDriver }[]) {
    for (const { vimTypes, driver } of drivers) {
      for (const type of vimTypes) {
        if (this.#byType.has(type)) throw new Error(`two infra drivers serve VIM type ${type}`);
        this.#byType.set(type, driver);
      }
    }
  }

  /** Every vimType served. */
  get vimTypes(): string[] {
    return [...this.#byType.keys()];
  }

  find(vimType: string): InfraDriver | undefined {
    return this.#byType.get(vimType);
  }

  get(vimType: string): InfraDriver {
    const driver = this.#byType.get(vimType);
    if (!driver) {
      throw new InfraError(
        'INVALID_REQUEST',
        `No infra driver serves VIM type ${vimType} (Bosun serves ${this.vimTypes.join(', ')}).`,
        { vimType },
      );
    }
    return driver;
  }
}

/** The drivers of a Bosun process, each prepared (at start, before serving). */
export async function prepareVimDrivers(config: Config, deps: DriverDeps): Promise<VimDriverTable> {
  const prepared = DRIVER_MODULES.map(async (m) => ({
    vimTypes: m.vimTypes,
    driver: await m.prepare(config, deps),
  }));
  return new VimDriverTable(await Promise.all(prepared));
}
