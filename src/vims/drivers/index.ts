/**
 * The driver table: every driver module Bosun has (one folder each), prepared once per process
 * into the drivers by the vimType they serve. The LCM engine asks it for the driver of an
 * instance's VIM; a vimType no driver serves is an InfraError (INVALID_REQUEST).
 */
import type { Config } from '../../config/load.ts';
import { type InfraDriver, InfraError, type VimConnection } from '../contract.ts';
import type { VimDescription } from '../description.ts';
import { kubernetesDriver } from './kubernetes/index.ts';
import type { DriverDeps, DriverModule } from './module.ts';
import { openStackDriver } from './openstack/index.ts';
import { simDriver } from './sim/index.ts';

const DRIVER_MODULES: readonly DriverModule[] = [simDriver, openStackDriver, kubernetesDriver];

/** Reads a VIM's zones, hosts and capacity live (see DriverModule.describe). */
export type VimDescriber = (vim: VimConnection) => Promise<VimDescription>;

export interface PreparedDriver {
  vimTypes: readonly string[];
  driver: InfraDriver;
  describe?: VimDescriber;
}

export class VimDriverTable {
  readonly #byType = new Map<string, InfraDriver>();
  readonly #describers = new Map<string, VimDescriber>();

  constructor(drivers: readonly PreparedDriver[]) {
    for (const { vimTypes, driver, describe } of drivers) {
      for (const type of vimTypes) {
        if (this.#byType.has(type)) throw new Error(`two infra drivers serve VIM type ${type}`);
        this.#byType.set(type, driver);
        if (describe) this.#describers.set(type, describe);
      }
    }
  }

  /** The describer of `vimType`'s driver; undefined when its driver cannot describe a VIM. */
  describer(vimType: string): VimDescriber | undefined {
    return this.#describers.get(vimType);
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
  const prepared = DRIVER_MODULES.map(async (m): Promise<PreparedDriver> => {
    const { describe } = m;
    return {
      vimTypes: m.vimTypes,
      driver: await m.prepare(config, deps),
      ...(describe ? { describe: (vim: VimConnection) => describe(vim, config, deps) } : {}),
    };
  });
  return new VimDriverTable(await Promise.all(prepared));
}
