/**
 * resourceChanges between two instantiatedVnfInfo: a VNFC whose metadata only comes back in
 * another key order (the engine keeps hook-written keys ahead of the driver's) is not MODIFIED;
 * one whose metadata value changes is; keys a management driver wrote, which the driver's
 * read-back does not carry, make no VNFC MODIFIED.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../src/sol/instance-model.ts';
import { resourceChanges } from '../../src/vims/drivers/resource-changes.ts';

const info = (metadata: Record<string, unknown>): InstantiatedVnfInfo => ({
  flavourId: 'simple',
  vnfState: 'STARTED',
  extCpInfo: [],
  vnfcResourceInfo: [
    {
      id: 'vnfc-1',
      vduId: 'VDU1',
      computeResource: { vimConnectionId: 'vim', resourceId: 'server-1' },
      metadata,
    },
  ],
});

test('metadata in another key order is no change; another value is', () => {
  const before = info({ stackResource: 'VDU1_scale_group', zone: 'az1', host: 'compute1' });
  const same = info({ zone: 'az1', host: 'compute1', stackResource: 'VDU1_scale_group' });
  assert.deepEqual(resourceChanges(before, same).affectedVnfcs, []);
  const moved = info({ zone: 'az1', host: 'compute2', stackResource: 'VDU1_scale_group' });
  assert.deepEqual(
    resourceChanges(before, moved).affectedVnfcs.map((v) => [v.id, v.changeType]),
    [['vnfc-1', 'MODIFIED']],
  );
});

test('metadata a management driver wrote and the read-back lacks is no change', () => {
  const before = info({ zone: 'az1', kubernetes: { role: 'master' }, sshHostKey: 'ssh-ed25519 AAAA' });
  const readBack = info({ zone: 'az1' });
  assert.deepEqual(resourceChanges(before, readBack).affectedVnfcs, []);
  const moved = info({ zone: 'az2' });
  assert.deepEqual(
    resourceChanges(before, moved).affectedVnfcs.map((v) => [v.id, v.changeType]),
    [['vnfc-1', 'MODIFIED']],
  );
});
