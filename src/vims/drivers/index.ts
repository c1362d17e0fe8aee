/**
 * The infra drivers Bosun has, by the vimType they serve. The LCM engine asks it for the driver
 * of an instance's VIM; a vimType no driver serves is an InfraError (INVALID_REQUEST).
 */
import type { Config } from '../../config/load.ts';
import type { Database } from '../../store/db/database.ts';
import { type InfraDriver, InfraError } from '../contract.ts';
import { createSimDriver } from './sim/driver.ts';

export class InfraDriverRegistry {
  readonly #byType = new Map<string, InfraDriver>();

  constructor(drivers: readonly InfraDriver[]) {
    for (const driver of drivers) {
      for (const type of driver.vimTypes) {
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

/** The drivers of a Bosun process: the simulated VIM (OpenStack and Kubernetes come later). */
export function createInfraDrivers(deps: { db: Database; config: Config }): InfraDriverRegistry {
  return new InfraDriverRegistry([createSimDriver({ db: deps.db, sim: deps.config.sim })]);
}
