/**
 * The GrantRequest builder and the local NFVO on a real sample VNFD: resource definitions for
 * added, removed and updated VNFCs (ports, storages, VLs, handles), placement constraints from
 * every affinity / anti-affinity rule (not only up to the first one that yields too few
 * references, as Tacker), VIM constraints, and the grant: zones spread and chosen by the rules,
 * refusal when anti-affinity cannot be met (unless best effort), images and flavours as vimAssets.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildGrantRequest, type GrantRequestInput } from '../../src/grant/grant-request.ts';
import { LocalNfvo } from '../../src/grant/local-nfvo.ts';
import { type GrantContext, GrantRefused } from '../../src/grant/nfvo.ts';
import { serverGroups } from '../../src/grant/placement.ts';
import type { InstantiatedVnfInfo } from '../../src/sol/instance-model.ts';
import type { NewVnfc } from '../../src/vims/contract.ts';
import type { Flavour, PlacementRule } from '../../src/vnfd/model/vnfd.ts';
import { flavourOf, MAIN_SAMPLE, newVnfc, sampleVnfd } from '../vims/plans.ts';

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

async function flavour(rules?: PlacementRule[]): Promise<Flavour> {
  const f = flavourOf(await sampleVnfd(MAIN_SAMPLE));
  return rules ? { ...f, placementRules: rules } : f;
}

function input(f: Flavour, extra: Partial<GrantRequestInput>): GrantRequestInput {
  return {
    vnfInstanceId: 'inst-1',
    vnfLcmOpOccId: 'op-1',
    vnfdId: 'vnfd-1',
    flavour: f,
    operation: 'INSTANTIATE',
    isAutomaticInvocation: false,
    delta: {},
    fallbackBestEffort: false,
    links: { vnfLcmOpOcc: '/vnflcm/v2/vnf_lcm_op_occs/op-1', vnfInstance: '/vnflcm/v2/vnf_instances/inst-1' },
    ...extra,
  };
}

/** An instance with one VNFC per given VDU, in the given zone, with a port on an internal VL and a volume. */
function current(f: Flavour, vnfcs: { id: string; vduId: string; zone: string }[]): InstantiatedVnfInfo {
  return {
    flavourId: f.flavourId,
    vnfState: 'STARTED',
    extCpInfo: [],
    vnfcResourceInfo: vnfcs.map((v) => ({
      id: v.id,
      vduId: v.vduId,
      zoneId: v.zone,
      computeResource: { resourceId: `srv-${v.id}`, vimConnectionId: 'default' },
      storageResourceIds: [`st-${v.id}`],
      vnfcCpInfo: [{ id: `cp-${v.id}`, cpdId: `${v.vduId}_CP3`, vnfLinkPortId: `port-${v.id}` }],
    })),
    vnfVirtualLinkResourceInfo: [
      {
        id: 'vl-1',
        vnfVirtualLinkDescId: 'internalVL1',
        networkResource: { resourceId: 'net-1' },
        vnfLinkPorts: vnfcs.map((v) => ({
          id: `port-${v.id}`,
          resourceHandle: { resourceId: `p-${v.id}` },
          cpInstanceId: `cp-${v.id}`,
        })),
      },
    ],
    virtualStorageResourceInfo: vnfcs.map((v) => ({
      id: `st-${v.id}`,
      virtualStorageDescId: `${v.vduId}-VirtualStorage`,
      storageResource: { resourceId: `vol-${v.id}` },
    })),
  };
}

const context = (f: Flavour, zones: string[], existingZones: Record<string, string> = {}): GrantContext => ({
  project: 'p',
  vim: { connectionId: 'default', vimId: 'vim-1', vimType: 'BOSUN.SIM.V1' },
  zones,
  existingZones,
  flavour: f,
  grantsPath: '/grant/v1/grants',
});

describe('GrantRequest', () => {
  test('instantiate: COMPUTE, a LINKPORT per VduCp, a STORAGE per volume, the VLs, the affinity rule, links', async () => {
    const f = await flavour();
    const vnfcs: NewVnfc[] = [newVnfc(f, 'VDU1'), newVnfc(f, 'VDU2')];
    const req = buildGrantRequest(
      input(f, {
        instantiationLevelId: 'instantiation_level_1',
        delta: {
          addVnfcs: vnfcs,
          addVirtualLinks: f.virtualLinks.map((vl, i) => ({ id: `vl-${i}`, vnfVirtualLinkDescId: vl.id })),
        },
        additionalParams: { k: 'v' },
      }),
    );
    const byType = (t: string) => (req.addResources ?? []).filter((r) => r.type === t);
    assert.deepEqual(
      byType('COMPUTE').map((r) => [r.id, r.resourceTemplateId]),
      vnfcs.map((v) => [v.id, v.vduId]),
    );
    assert.deepEqual(
      byType('LINKPORT')
        .filter((r) => r.vduId === 'VDU1')
        .map((r) => r.resourceTemplateId),
      ['VDU1_CP1', 'VDU1_CP2', 'VDU1_CP3', 'VDU1_CP4', 'VDU1_CP5'],
    );
    assert.equal(
      byType('LINKPORT').find((r) => r.resourceTemplateId === 'VDU1_CP1')?.id,
      `VDU1_CP1-${vnfcs[0].id}`,
    );
    assert.deepEqual(
      byType('STORAGE').map((r) => r.resourceTemplateId),
      ['VDU1-VirtualStorage', 'VDU2-VirtualStorage'],
    );
    assert.deepEqual(
      byType('VL').map((r) => r.resourceTemplateId),
      ['internalVL1', 'internalVL2', 'internalVL3'],
    );
    assert.deepEqual(req.placementConstraints, [
      {
        affinityOrAntiAffinity: 'AFFINITY',
        scope: 'ZONE',
        resource: vnfcs.map((v) => ({ idType: 'GRANT', resourceId: v.id })),
        fallbackBestEffort: false,
      },
    ]);
    assert.equal(req.instantiationLevelId, 'instantiation_level_1');
    assert.equal(req.flavourId, 'simple');
    assert.deepEqual(req.additionalParams, { k: 'v' });
    assert.deepEqual(req._links, {
      vnfLcmOpOcc: { href: '/vnflcm/v2/vnf_lcm_op_occs/op-1' },
      vnfInstance: { href: '/vnflcm/v2/vnf_instances/inst-1' },
    });
    assert.equal(req.removeResources, undefined);
  });

  test('every rule is evaluated: a rule with too few references does not hide the next one (Tacker breaks)', async () => {
    const f = await flavour([
      rule('lonely', 'anti-affinity', 'zone', ['VDU2']),
      rule('spread', 'anti-affinity', 'nfvi_node', ['VDU1']),
      rule('pop', 'affinity', 'nfvi_pop', ['VDU1']),
      rule('unknown-scope', 'affinity', 'network_link_and_node', ['VDU1']),
    ]);
    const vnfcs = [newVnfc(f, 'VDU1'), newVnfc(f, 'VDU1'), newVnfc(f, 'VDU2')];
    const req = buildGrantRequest(input(f, { operation: 'SCALE', delta: { addVnfcs: vnfcs } }));
    assert.deepEqual(
      req.placementConstraints?.map((c) => [c.affinityOrAntiAffinity, c.scope, c.resource.length]),
      [
        ['ANTI_AFFINITY', 'NFVI_NODE', 2],
        ['AFFINITY', 'NFVI_POP', 2],
      ],
    );
    assert.deepEqual(req.vimConstraints, [
      {
        sameResourceGroup: true,
        resource: vnfcs.slice(0, 2).map((v) => ({ idType: 'GRANT', resourceId: v.id })),
      },
    ]);
  });

  test('scale out refers to the existing VNFCs by VIM id; scale in and terminate remove with handles', async () => {
    const f = await flavour([rule('anti', 'anti-affinity', 'zone', ['VDU1'])]);
    const info = current(f, [
      { id: 'a', vduId: 'VDU1', zone: 'zone-a' },
      { id: 'b', vduId: 'VDU2', zone: 'zone-a' },
    ]);
    const added = newVnfc(f, 'VDU1');
    const out = buildGrantRequest(
      input(f, { operation: 'SCALE', current: info, delta: { addVnfcs: [added] } }),
    );
    assert.deepEqual(out.placementConstraints?.[0].resource, [
      { idType: 'GRANT', resourceId: added.id },
      { idType: 'RES_MGMT', resourceId: 'srv-a', vimConnectionId: 'default' },
    ]);
    const term = buildGrantRequest(
      input(f, {
        operation: 'TERMINATE',
        current: info,
        delta: { removeVnfcs: ['a', 'b'], removeVirtualLinks: ['vl-1'] },
      }),
    );
    assert.deepEqual(
      term.removeResources?.map((r) => [r.type, r.id, r.resource?.resourceId]),
      [
        ['COMPUTE', 'a', 'srv-a'],
        ['LINKPORT', 'port-a', 'p-a'],
        ['STORAGE', 'st-a', 'vol-a'],
        ['COMPUTE', 'b', 'srv-b'],
        ['LINKPORT', 'port-b', 'p-b'],
        ['STORAGE', 'st-b', 'vol-b'],
        ['VL', 'vl-1', 'net-1'],
      ],
    );
    assert.equal(term.addResources, undefined);
    assert.equal(term.placementConstraints, undefined);
    const heal = buildGrantRequest(
      input(f, { operation: 'HEAL', current: info, delta: { updateVnfcs: ['a'], withStorage: true } }),
    );
    assert.deepEqual(
      heal.updateResources?.map((r) => [r.type, r.id]),
      [
        ['COMPUTE', 'a'],
        ['STORAGE', 'st-a'],
      ],
    );
  });
});

describe('local NFVO', () => {
  test('spreads new VNFCs over the zones, least loaded first; images and flavours as vimAssets', async () => {
    // VDU2's image is the VIM's already (the package carries no file for it): the grant names it;
    // VDU1's is in the package, which the VIM driver uploads, so the grant leaves it out.
    const sample = await flavour([]);
    const f: Flavour = {
      ...sample,
      softwareImages: sample.softwareImages.map((i) =>
        i.id === 'VDU2-VirtualStorage' ? { ...i, imagePath: '' } : i,
      ),
    };
    const vnfcs = [newVnfc(f, 'VDU1'), newVnfc(f, 'VDU1'), newVnfc(f, 'VDU1'), newVnfc(f, 'VDU2')];
    const req = buildGrantRequest(input(f, { delta: { addVnfcs: vnfcs } }));
    const grant = await new LocalNfvo().grant(req, context(f, ['zone-a', 'zone-b'], { 'srv-x': 'zone-a' }));
    const zoneOf = (id: string) =>
      grant.zones?.find(
        (z) => z.id === grant.addResources?.find((g) => g.resourceDefinitionId === id)?.zoneId,
      )?.zoneId;
    // The first goes where the instance has nothing yet; in all, 3 and 2 VNFCs per zone.
    const zones = vnfcs.map((v) => zoneOf(v.id));
    assert.equal(zones[0], 'zone-b');
    const inA = zones.filter((z) => z === 'zone-a').length + 1;
    const inB = zones.filter((z) => z === 'zone-b').length;
    assert.deepEqual([inA, inB].sort(), [2, 3]);
    assert.equal(grant.addResources?.length, req.addResources?.length);
    assert.equal(grant.vnfLcmOpOccId, 'op-1');
    assert.deepEqual(grant.vimConnectionInfo, { default: { vimId: 'vim-1', vimType: 'BOSUN.SIM.V1' } });
    assert.match(grant._links.self.href, /^\/grant\/v1\/grants\/[0-9a-f-]{36}$/);
    assert.deepEqual(
      grant.vimAssets?.computeResourceFlavours?.map((x) => [x.vnfdVirtualComputeDescId, x.vimFlavourId]),
      [
        ['VDU1', 'm1.tiny'],
        ['VDU2', 'm1.tiny'],
      ],
    );
    assert.deepEqual(
      grant.vimAssets?.softwareImages?.map((x) => [x.vnfdSoftwareImageId, x.vimSoftwareImageId]),
      [['VDU2-VirtualStorage', 'VDU2-VirtualStorage-image']],
    );
  });

  test('an image the VNFD only names (sw_image_data, no file in the package) is granted by that name', async () => {
    const f = flavourOf(await sampleVnfd('sol_v2_common__basic_lcms_min.zip'));
    const req = buildGrantRequest(
      input(f, { delta: { addVnfcs: [newVnfc(f, 'VDU1'), newVnfc(f, 'VDU2')] } }),
    );
    const grant = await new LocalNfvo().grant(req, context(f, ['zone-a']));
    assert.deepEqual(
      grant.vimAssets?.softwareImages?.map((x) => [x.vnfdSoftwareImageId, x.vimSoftwareImageId]),
      [
        ['VDU1', 'cirros-0.5.2-x86_64-disk'],
        ['VDU2', 'cirros-0.5.2-x86_64-disk'],
      ],
    );
  });

  test('a VDU that names no VIM flavour gets none in the grant (the VIM picks one that fits)', async () => {
    const f = await flavour([]);
    const unnamed: Flavour = {
      ...f,
      vdus: f.vdus.map((v) =>
        v.id === 'VDU2' && v.virtualCompute
          ? { ...v, virtualCompute: { ...v.virtualCompute, requestedAdditionalCapabilityNames: [] } }
          : v,
      ),
    };
    const req = buildGrantRequest(
      input(unnamed, { delta: { addVnfcs: [newVnfc(unnamed, 'VDU1'), newVnfc(unnamed, 'VDU2')] } }),
    );
    const grant = await new LocalNfvo().grant(req, context(unnamed, ['zone-a']));
    assert.deepEqual(
      grant.vimAssets?.computeResourceFlavours?.map((x) => [x.vnfdVirtualComputeDescId, x.vimFlavourId]),
      [['VDU1', 'm1.tiny']],
    );
  });

  test('zone anti-affinity: distinct zones, avoiding existing members; refused when impossible unless best effort', async () => {
    const f = await flavour([rule('anti', 'anti-affinity', 'zone', ['VDU1'])]);
    const info = current(f, [{ id: 'a', vduId: 'VDU1', zone: 'zone-a' }]);
    const one = newVnfc(f, 'VDU1');
    const req = buildGrantRequest(
      input(f, { operation: 'SCALE', current: info, delta: { addVnfcs: [one] } }),
    );
    const grant = await new LocalNfvo().grant(
      req,
      context(f, ['zone-a', 'zone-b', 'zone-c'], { 'srv-a': 'zone-a' }),
    );
    assert.notEqual(
      grant.addResources?.find((g) => g.resourceDefinitionId === one.id)?.zoneId,
      'zone-zone-a',
    );

    const two = [newVnfc(f, 'VDU1'), newVnfc(f, 'VDU1')];
    const tooMany = buildGrantRequest(
      input(f, { operation: 'SCALE', current: info, delta: { addVnfcs: two } }),
    );
    await assert.rejects(
      new LocalNfvo().grant(tooMany, context(f, ['zone-a', 'zone-b'], { 'srv-a': 'zone-a' })),
      (err: unknown) => {
        assert.ok(err instanceof GrantRefused);
        assert.match(
          err.message,
          /No availability zone satisfies the zone anti-affinity rule 'anti' for VDU1 .*other members are in zone-a, zone-b.*fallbackBestEffort/,
        );
        return true;
      },
    );
    const bestEffort = buildGrantRequest(
      input(f, { operation: 'SCALE', current: info, delta: { addVnfcs: two }, fallbackBestEffort: true }),
    );
    const granted = await new LocalNfvo().grant(
      bestEffort,
      context(f, ['zone-a', 'zone-b'], { 'srv-a': 'zone-a' }),
    );
    assert.equal(granted.addResources?.filter((g) => g.zoneId).length, 2);
    // Best effort says what it broke.
    assert.match(
      String((granted.additionalParams?.placementNotes as string[] | undefined)?.[0]),
      /^VDU1 \(.+\) placed in zone zone-[ab] although no zone satisfies its zone anti-affinity rule 'anti' \(fallbackBestEffort\)\.$/,
    );
  });

  test('zone affinity: new members join the zone of the existing ones', async () => {
    const f = await flavour([rule('together', 'affinity', 'zone', ['VDU1', 'VDU2'])]);
    const info = current(f, [{ id: 'b', vduId: 'VDU2', zone: 'zone-b' }]);
    const vnfcs = [newVnfc(f, 'VDU1'), newVnfc(f, 'VDU1')];
    const req = buildGrantRequest(
      input(f, { operation: 'SCALE', current: info, delta: { addVnfcs: vnfcs } }),
    );
    const grant = await new LocalNfvo().grant(req, context(f, ['zone-a', 'zone-b'], { 'srv-b': 'zone-b' }));
    assert.deepEqual(
      grant.zones?.map((z) => z.zoneId),
      ['zone-b'],
    );
  });
});

describe('host affinity binds zones', () => {
  test('members of a host affinity rule are granted one zone (servers sharing a host share its zone)', async () => {
    const f = await flavour([rule('one-host', 'affinity', 'nfvi_node', ['VDU1', 'VDU2'])]);
    for (let i = 0; i < 5; i++) {
      const vnfcs = [newVnfc(f, 'VDU1'), newVnfc(f, 'VDU2'), newVnfc(f, 'VDU1')];
      const req = buildGrantRequest(input(f, { delta: { addVnfcs: vnfcs } }));
      const grant = await new LocalNfvo().grant(req, context(f, ['zone-a', 'zone-b', 'zone-c']));
      assert.equal(grant.zones?.length, 1);
    }
  });
});

describe('server groups', () => {
  test('one per host-scope rule with a member, by rule name; soft with best effort; zone rules give none', () => {
    const rules = [
      rule('apart', 'anti-affinity', 'nfvi_node', ['VDU1']),
      rule('close', 'affinity', 'nfvi_node', ['VDU1', 'VDU2']),
      rule('zones', 'anti-affinity', 'zone', ['VDU1']),
      rule('nobody', 'anti-affinity', 'nfvi_node', ['VDU9']),
    ];
    const vnfcs = [
      { id: 'a', vduId: 'VDU1' },
      { id: 'b', vduId: 'VDU2' },
    ];
    assert.deepEqual(serverGroups(rules, vnfcs, false), [
      { id: 'apart', policy: 'anti-affinity', members: ['a'] },
      { id: 'close', policy: 'affinity', members: ['a', 'b'] },
    ]);
    assert.deepEqual(
      serverGroups(rules, vnfcs, true).map((g) => g.policy),
      ['soft-anti-affinity', 'soft-affinity'],
    );
  });
});
