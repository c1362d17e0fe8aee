/**
 * The server an LCM test file runs against, one per describe block: started before its tests on
 * the given database with the LCM test settings (fast polling, no simulated VIM delay), closed
 * after them. Also what the tests ask of it besides LCM: a package's usageState and the
 * simulated VIM's admin API (injected faults, servers of an instance).
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { deepMerge } from '../../../src/config/load.ts';
import type { TestDialect } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { onboard, V2_HEADERS as PKG_HEADERS, V2 as PKG_V2 } from '../vnfpkgm/support.ts';
import { onboardOnce } from './lcm-support.ts';

export const LCM_TEST_CONFIG = {
  worker: { pollIntervalMs: 50 },
  sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 },
};

/**
 * The running server of the enclosing describe block, with the main sample onboarded, or the
 * package `variant` builds (`url`, `vnfdId` and `pkgId` are valid inside its tests and hooks).
 */
export function lcmServer(
  dialect: TestDialect,
  config: Record<string, unknown> = {},
  variant?: () => Promise<{ zip: Buffer; vnfdId: string }>,
) {
  const holder = {
    server: undefined as unknown as TestServer,
    vnfdId: '',
    pkgId: '',
    get url() {
      return holder.server.url;
    },
  };
  before(async () => {
    holder.server = await startTestServer(dialect, { config: deepMerge(LCM_TEST_CONFIG, config) });
    const pkg = variant ? await onboardVariant(holder.url, await variant()) : await onboardOnce(holder.url);
    holder.vnfdId = pkg.vnfdId as string;
    holder.pkgId = pkg.id;
  });
  after(() => holder.server.close());
  return holder;
}

async function onboardVariant(base: string, variant: { zip: Buffer; vnfdId: string }) {
  const pkg = await onboard(base, variant.zip);
  assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
  return { ...pkg, vnfdId: variant.vnfdId };
}

export const packageUsage = async (base: string, pkgId: string) =>
  (await http<{ usageState: string }>(base, 'GET', `${PKG_V2}/${pkgId}`, { headers: PKG_HEADERS })).body
    .usageState;

export const SIM = '/bosun/v1/sim';

/** Injects a fault into the simulated VIM (see src/vims/drivers/sim). */
export async function simFault(base: string, kind: string, action: 'fail' | 'hang', extra: object = {}) {
  const res = await http(base, 'POST', `${SIM}/faults`, { body: { kind, action, ...extra } });
  assert.equal(res.status, 201, res.text);
}

export interface SimServer {
  id: string;
  instanceId?: string;
  vduId: string;
  opOccId?: string;
}

export const simServers = async (base: string, instanceId: string) =>
  (await http<SimServer[]>(base, 'GET', `${SIM}/servers?instanceId=${instanceId}`)).body;
