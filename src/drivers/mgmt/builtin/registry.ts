/**
 * The built-in management drivers, and which artifact selects each. A VNFD selects one with a
 * Vnflcm artifact whose file is an absolute path on the VNFM host (Tacker's packages name
 * host-installed drivers this way, e.g. `/opt/stack/tacker/tacker/vnfm/mgmt_drivers/vnflcm_noop.py`):
 * the file's name picks the driver from FILE_NAMES. A name not listed is refused with the list of
 * the known ones.
 */
import { basename } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { ApiError } from '../../../sol/problem.ts';
import { checkSshParams } from '../ssh/ssh-params.ts';
import type { BuiltinDriver } from './driver.ts';
import { kubernetesClusterDriver } from './kubernetes-cluster/driver.ts';
import { noopDriver } from './noop/driver.ts';
import { sshCommandDriver } from './ssh-command/driver.ts';

export const BUILTIN_DRIVERS: Readonly<Record<string, BuiltinDriver>> = {
  [noopDriver.name]: noopDriver,
  [sshCommandDriver.name]: sshCommandDriver,
  [kubernetesClusterDriver.name]: kubernetesClusterDriver,
};

/** The file name of a host-path artifact → the built-in driver it selects. */
export const FILE_NAMES: Readonly<Record<string, string>> = {
  // Tacker's default driver (v1 `vnflcm_noop`).
  'vnflcm_noop.py': 'noop',
  noop: 'noop',
  'ssh-command': 'ssh-command',
  'ssh_command.py': 'ssh-command',
  // Tacker's Kubernetes-cluster samples (v1 driver, v2 script) and Bosun's own name.
  'kubernetes_mgmt.py': 'kubernetes-cluster',
  'kubernetes_mgmt_v2.py': 'kubernetes-cluster',
  'kubernetes-cluster': 'kubernetes-cluster',
};

export type BuiltinLookup = { driver: BuiltinDriver } | { unknown: string };

/** The built-in driver a host-path artifact names, or why there is none. */
export function builtinFor(path: string): BuiltinLookup {
  const name = FILE_NAMES[basename(path)];
  const driver = name ? BUILTIN_DRIVERS[name] : undefined;
  if (driver) return { driver };
  const known = Object.keys(FILE_NAMES).join(', ');
  return {
    unknown: `${path} is a management driver on the VNFM host, and Bosun has no built-in driver for ${basename(path)} (it knows the file names ${known}); ship the driver as a script in the package, or name one of Bosun's built-in drivers`,
  };
}

/**
 * Checks, when a request is accepted, the additionalParams the built-in drivers read
 * (`ssh`, and each driver's own key when present): a 400 naming the first problem, so that a
 * mistake is refused before any work rather than failing a hook half-way.
 */
export function checkBuiltinParams(additionalParams: unknown): void {
  checkSshParams(additionalParams);
  if (typeof additionalParams !== 'object' || additionalParams === null) return;
  for (const driver of Object.values(BUILTIN_DRIVERS)) {
    if (!driver.params) continue;
    const value = (additionalParams as Record<string, unknown>)[driver.params.key];
    if (value === undefined) continue;
    if (Value.Check(driver.params.schema, value)) {
      driver.params.check?.(value);
      continue;
    }
    const first = Value.Errors(driver.params.schema, value).First();
    throw new ApiError(
      400,
      `additionalParams.${driver.params.key}${first?.path ?? ''} is invalid: ${first?.message ?? 'not an object'}.`,
    );
  }
}
