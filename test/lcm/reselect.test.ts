/**
 * The zone chosen when a zone had no room (lcm/placement/reselect.ts), as a decision on plain
 * data: which VNFCs move, where the rules let them go, and when the operation stops instead.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ReselectInput, reselect } from '../../src/lcm/placement/reselect.ts';
import type { PlacementRule } from '../../src/vnfd/model/vnfd.ts';

const loc = { file: 'x', line: 1, column: 1 };
const rule = (
  name: string,
  kind: PlacementRule['kind'],
  scope: string,
  members: string[],
): PlacementRule => ({
  name,
  kind,
  scope,
  targets: members,
  members,
  loc,
});

const NO_ROOM = 'No valid host was found. There are not enough hosts available.';

function input(extra: Partial<ReselectInput>): ReselectInput {
  return {
    failure: { reason: NO_ROOM, vnfcId: 'n1', vduId: 'VDU1', zone: 'az2' },
    zones: ['az1', 'az2', 'az3'],
    failed: [],
    vnfcs: [
      { id: 'n1', vduId: 'VDU1' },
      { id: 'n2', vduId: 'VDU1' },
      { id: 'old', vduId: 'VDU2' },
    ],
    movable: [
      { id: 'n1', vduId: 'VDU1' },
      { id: 'n2', vduId: 'VDU1' },
    ],
    zoneOf: new Map([
      ['n1', 'az2'],
      ['n2', 'az2'],
      ['old', 'az1'],
    ]),
    rules: [],
    fallbackBestEffort: false,
    retries: 0,
    maxRetries: 3,
    ...extra,
  };
}

describe('zone reselection choice', () => {
  test('every VNFC granted the failed zone moves, least loaded zone first', () => {
    const choice = reselect(input({}));
    assert.deepEqual(choice?.next, [
      { vnfcId: 'n1', vduId: 'VDU1', zone: 'az3' },
      { vnfcId: 'n2', vduId: 'VDU1', zone: 'az1' },
    ]);
    assert.equal(choice?.zone, 'az2');
    assert.equal(choice?.reason, NO_ROOM);
  });

  test('affinity peers still to move go together; anti-affinity peers apart', () => {
    const together = reselect(input({ rules: [rule('pair', 'affinity', 'zone', ['VDU1'])] }));
    assert.deepEqual(
      together?.next.map((n) => n.zone),
      ['az3', 'az3'],
    );
    const apart = reselect(input({ rules: [rule('spread', 'anti-affinity', 'zone', ['VDU1', 'VDU2'])] }));
    // az1 holds the VDU2 peer: n1 goes to az3, and n2 has nowhere left but to break the rule.
    assert.match(String(apart?.stopped), /zone anti-affinity rule 'spread' allows none of the zones left/);
    const bestEffort = reselect(
      input({ rules: [rule('spread', 'anti-affinity', 'zone', ['VDU1', 'VDU2'])], fallbackBestEffort: true }),
    );
    assert.equal(bestEffort?.next[0].zone, 'az3');
    assert.equal(bestEffort?.notes?.length, 1);
    assert.match(String(bestEffort?.notes?.[0]), /^VDU1 \(n2\) goes to zone az[13] although/);
  });

  test('host affinity binds the zone; host anti-affinity does not', () => {
    const host = reselect(input({ rules: [rule('one-host', 'affinity', 'nfvi_node', ['VDU1', 'VDU2'])] }));
    assert.deepEqual(
      host?.next.map((n) => n.zone),
      ['az1', 'az1'],
    );
    const spread = reselect(
      input({ rules: [rule('hosts', 'anti-affinity', 'nfvi_node', ['VDU1', 'VDU2'])] }),
    );
    assert.equal(spread?.stopped, undefined);
  });

  test('it stops when the retries are used up or no zone is left', () => {
    const used = reselect(input({ retries: 1, maxRetries: 1 }));
    assert.deepEqual(used?.next, []);
    assert.match(
      String(used?.stopped),
      /^1 other zone\(s\) tried, as many as lcm.placementZoneRetries allows/,
    );
    const none = reselect(input({ failed: ['az1', 'az3'] }));
    assert.match(String(none?.stopped), /^no zone left: every zone of the VIM \(az1, az2, az3\) failed$/);
  });

  test('a failure it cannot place (no zone known, or of a VNFC the operation does not place) is not reselected', () => {
    assert.equal(reselect(input({ failure: { reason: NO_ROOM } })), undefined);
    assert.equal(reselect(input({ failure: { reason: NO_ROOM, vnfcId: 'old' } })), undefined);
    // The zone comes from the grant when the VIM did not say.
    assert.equal(reselect(input({ failure: { reason: NO_ROOM, vnfcId: 'n2' } }))?.zone, 'az2');
  });
});
