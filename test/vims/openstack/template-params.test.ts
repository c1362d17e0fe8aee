/**
 * Heat templates of the OpenStack driver without a cloud: reading a package's BaseHOT (and
 * refusing what a hostile one may do), the `nfv` parameter with Tacker's UserData semantics on
 * the Tacker samples' BaseHOTs, and the template generated from a VNFD without one.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { InfraError } from '../../../src/vims/contract.ts';
import { orderAffinityMembers } from '../../../src/vims/drivers/openstack/templates/affinity-order.ts';
import { readBaseHot } from '../../../src/vims/drivers/openstack/templates/base-hot.ts';
import { buildStack } from '../../../src/vims/drivers/openstack/templates/build-stack.ts';
import type {
  HotSource,
  StackDesign,
  StackVnfc,
} from '../../../src/vims/drivers/openstack/templates/design.ts';
import { generateHot } from '../../../src/vims/drivers/openstack/templates/generate-hot.ts';
import { grantedVnfc } from '../../../src/vims/drivers/openstack/templates/granted-vnfc.ts';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import type { Flavour } from '../../../src/vnfd/model/vnfd.ts';
import { fixtureFiles } from '../../support/csar-fixtures.ts';
import { SAMPLES_DIR } from '../../support/samples.ts';
import { flavourOf, newVnfc, sampleVnfd } from '../plans.ts';

// biome-ignore lint/suspicious/noExplicitAny: template trees are read by path in the assertions.
type Tree = any;

const STANDARD = 'sol_v2_common__userdata_standard.zip';
const DEFAULT_USERDATA = 'sol_v2_common__basic_lcms_min.zip';

async function sampleBaseHot(file: string): Promise<{ flavour: Flavour; source: HotSource }> {
  const flavour = flavourOf(await sampleVnfd(file));
  const opened = await openZipPackage(join(SAMPLES_DIR, file));
  assert.ok(opened.files);
  try {
    const source = await readBaseHot(opened.files, flavour);
    assert.ok(source, `${file} has a BaseHOT`);
    return { flavour, source };
  } finally {
    await opened.files.close();
  }
}

const vnfc = (flavour: Flavour, vduId: string, fields: Partial<StackVnfc> = {}): StackVnfc => ({
  ...newVnfc(flavour, vduId),
  ...fields,
});

/** An external VL carrying `cps`; `subnet` and `ip` go in each CP's one cpConfig. */
function extVl(network: string, cps: string[], address: { subnet?: string; ip?: string } = {}) {
  return {
    id: `ext-${network}`,
    resourceId: network,
    extCps: cps.map((cpdId) => ({
      cpdId,
      cpConfig: {
        [`${cpdId}-cfg`]: {
          cpProtocolData: [
            {
              layerProtocol: 'IP_OVER_ETHERNET',
              ipOverEthernet: {
                ipAddresses: [
                  {
                    type: 'IPV4',
                    ...(address.ip ? { fixedAddresses: [address.ip] } : { numDynamicAddresses: 1 }),
                    ...(address.subnet ? { subnetId: address.subnet } : {}),
                  },
                ],
              },
            },
          ],
        },
      },
    })),
  };
}

const design = (flavour: Flavour, source: HotSource, fields: Partial<StackDesign>): StackDesign => ({
  flavour,
  source,
  vnfcs: [],
  extVirtualLinks: [],
  extManagedVirtualLinks: [],
  ...fields,
});

const nfvOf = (built: ReturnType<typeof buildStack>) =>
  built.parameters.nfv as {
    VDU: Record<string, Record<string, unknown>>;
    CP: Record<string, Record<string, unknown>>;
  };
const resourcesOf = (built: ReturnType<typeof buildStack>) => built.template.resources as Tree;

describe('BaseHOT of a Tacker sample with StandardUserData (one nested stack per VNFC)', () => {
  test('reads the top template and gives Heat the nested templates by the name the top template uses', async () => {
    const { source } = await sampleBaseHot(STANDARD);
    assert.equal(source.origin, 'BaseHOT/simple/sample3.yaml');
    assert.deepEqual(Object.keys(source.files).sort(), ['VDU1.yaml', 'VDU2.yaml']);
    assert.match(source.files['VDU1.yaml'] ?? '', /OS::Nova::Server/);
    assert.equal((source.template.resources as Tree).VDU1.type, 'VDU1.yaml');
  });

  test('each VNFC gets its own resource and its own zone, flavour and image from the grant', async () => {
    const { flavour, source } = await sampleBaseHot(STANDARD);
    const [a, b, c] = [newVnfc(flavour, 'VDU1'), newVnfc(flavour, 'VDU1'), newVnfc(flavour, 'VDU2')];
    const grant = {
      grantId: 'g',
      zones: [
        { id: 'z1', zoneId: 'az1' },
        { id: 'z2', zoneId: 'az2' },
      ],
      zoneOf: { [a.id]: 'z1', [b.id]: 'z2', [c.id]: 'z1' },
      softwareImages: { VDU1: 'image-vdu1', 'VDU2-VirtualStorage': 'image-volume' },
      computeFlavours: { VDU1: 'm1.small' },
      serverGroups: [],
    };
    const built = buildStack(
      design(flavour, source, {
        vnfcs: [c, b, a].map((v) => grantedVnfc(grant, v)),
        extVirtualLinks: [
          extVl('net-ext', ['VDU1_CP1']),
          extVl('net-ext2', ['VDU2_CP1'], { subnet: 'subnet-ext2', ip: '10.0.0.9' }),
        ],
      }),
    );
    assert.equal(built.layout, 'per-vnfc');
    const resources = resourcesOf(built);
    assert.equal(resources.VDU1, undefined, 'the VDU resource as written is replaced by its VNFCs');
    assert.deepEqual(built.resources, {
      [`VDU1-${a.id}`]: [a.id],
      [`VDU1-${b.id}`]: [b.id],
      [`VDU2-${c.id}`]: [c.id],
    });
    assert.deepEqual(resources[`VDU1-${a.id}`].properties.zone, {
      get_param: ['nfv', 'VDU', `VDU1-${a.id}`, 'locationConstraints'],
    });
    assert.deepEqual(resources[`VDU1-${b.id}`].properties.net1, {
      get_param: ['nfv', 'CP', `VDU1_CP1-${b.id}`, 'network'],
    });
    assert.deepEqual(resources[`VDU1-${b.id}`].properties.net2, { get_resource: 'internalVL1' });
    const nfv = nfvOf(built);
    assert.deepEqual(nfv.VDU[`VDU1-${a.id}`], {
      computeFlavourId: 'm1.small',
      vcImageId: 'image-vdu1',
      locationConstraints: 'az1',
      name: `VDU1-${a.id}`,
    });
    assert.equal(nfv.VDU[`VDU1-${b.id}`]?.locationConstraints, 'az2');
    // No flavour granted for VDU2: the VNFD's requested_additional_capability_name.
    assert.deepEqual(nfv.VDU[`VDU2-${c.id}`], { computeFlavourId: 'm1.tiny' });
    assert.deepEqual(nfv.VDU[`VDU2-VirtualStorage-${c.id}`], { vcImageId: 'image-volume' });
    assert.deepEqual(nfv.CP[`VDU1_CP1-${a.id}`], { network: 'net-ext' });
    // The template reads [nfv, CP, VDU2_CP1, fixed_ips, 0, subnet]: a list of the cpConfig's addresses.
    assert.deepEqual(nfv.CP[`VDU2_CP1-${c.id}`], {
      network: 'net-ext2',
      fixed_ips: [{ subnet: 'subnet-ext2' }],
    });
    assert.deepEqual(Object.keys(built.files).sort(), ['VDU1.yaml', 'VDU2.yaml']);
  });

  test('an update keeps what existing VNFCs have and places only the new one where the grant says', async () => {
    const { flavour, source } = await sampleBaseHot(STANDARD);
    const [a, c] = [newVnfc(flavour, 'VDU1'), newVnfc(flavour, 'VDU2')];
    const grant = {
      grantId: 'g',
      zones: [{ id: 'z1', zoneId: 'az1' }],
      zoneOf: { [a.id]: 'z1', [c.id]: 'z1' },
      softwareImages: { VDU1: 'image-vdu1', 'VDU2-VirtualStorage': 'image-volume' },
      computeFlavours: { VDU1: 'm1.small', VDU2: 'm1.small' },
      serverGroups: [],
    };
    const links = [
      extVl('net-ext', ['VDU1_CP1']),
      extVl('net-ext2', ['VDU2_CP1'], { subnet: 's2', ip: '10.0.0.9' }),
    ];
    const first = buildStack(
      design(flavour, source, { vnfcs: [c, a].map((v) => grantedVnfc(grant, v)), extVirtualLinks: links }),
    );
    // Scale out: the request carries no external VLs and the grant only places the new VNFC.
    const added = newVnfc(flavour, 'VDU1');
    const addedVdu2 = newVnfc(flavour, 'VDU2');
    const scaleGrant = {
      grantId: 'g2',
      zones: [{ id: 'z2', zoneId: 'az2' }],
      zoneOf: { [added.id]: 'z2', [addedVdu2.id]: 'z2' },
      softwareImages: { VDU1: 'image-vdu1' },
      computeFlavours: {},
      serverGroups: [],
    };
    const existing = (v: { id: string; vduId: string; cps: string[]; storages: string[] }): StackVnfc => ({
      id: v.id,
      vduId: v.vduId,
      cps: v.cps,
      storages: v.storages,
    });
    const second = buildStack(
      design(flavour, source, {
        vnfcs: [grantedVnfc(scaleGrant, added), grantedVnfc(scaleGrant, addedVdu2), existing(c), existing(a)],
        previous: first.parameters.nfv,
      }),
    );
    const before = nfvOf(first);
    const after = nfvOf(second);
    assert.deepEqual(after.VDU[`VDU1-${a.id}`], before.VDU[`VDU1-${a.id}`]);
    assert.deepEqual(after.CP[`VDU2_CP1-${c.id}`], before.CP[`VDU2_CP1-${c.id}`]);
    assert.equal(after.VDU[`VDU1-${added.id}`]?.locationConstraints, 'az2');
    assert.equal(after.VDU[`VDU1-${added.id}`]?.computeFlavourId, 'm1.tiny');
    // The new VNFC's port goes on the network its siblings use; it shares their subnet, never their address.
    assert.equal(after.CP[`VDU1_CP1-${added.id}`]?.network, 'net-ext');
    assert.deepEqual(after.CP[`VDU2_CP1-${addedVdu2.id}`], {
      network: 'net-ext2',
      fixed_ips: [{ subnet: 's2' }],
    });
    assert.deepEqual(
      Object.keys(second.resources).sort(),
      [`VDU1-${a.id}`, `VDU1-${added.id}`, `VDU2-${c.id}`, `VDU2-${addedVdu2.id}`].sort(),
    );
  });

  test('a scale in drops exactly the VNFCs left out of the design', async () => {
    const { flavour, source } = await sampleBaseHot(STANDARD);
    const vnfcs = [
      vnfc(flavour, 'VDU1'),
      vnfc(flavour, 'VDU1'),
      vnfc(flavour, 'VDU1'),
      vnfc(flavour, 'VDU2'),
    ];
    const all = buildStack(
      design(flavour, source, { vnfcs, extVirtualLinks: [extVl('n', ['VDU1_CP1', 'VDU2_CP1'])] }),
    );
    const kept = vnfcs.filter((_, i) => i !== 1);
    const after = buildStack(design(flavour, source, { vnfcs: kept, previous: all.parameters.nfv }));
    assert.deepEqual(Object.keys(after.resources).sort(), kept.map((v) => `${v.vduId}-${v.id}`).sort());
    assert.equal(nfvOf(after).VDU[`VDU1-${vnfcs[1]?.id}`], undefined);
  });

  test("externally managed VLs replace the stack's own network and its subnet", async () => {
    const { flavour, source } = await sampleBaseHot(STANDARD);
    const built = buildStack(
      design(flavour, source, {
        vnfcs: [vnfc(flavour, 'VDU1', { zone: 'az1', images: { VDU1: 'img' } })],
        extManagedVirtualLinks: [
          { id: 'm1', vnfVirtualLinkDescId: 'internalVL1', resourceId: 'net-managed' },
        ],
      }),
    );
    const resources = resourcesOf(built);
    assert.equal(resources.internalVL1, undefined);
    assert.equal(resources.internalVL1_subnet, undefined);
    assert.ok(resources.internalVL2, 'the other internal VL stays');
    const [vdu1] = Object.keys(built.resources);
    assert.equal(resources[vdu1 as string].properties.net2, 'net-managed');
  });

  test('a generated VNFC on an externally managed VL no longer waits for the subnet the NFVO replaced', async () => {
    const flavour = flavourOf(await sampleVnfd(STANDARD));
    const managed = [{ id: 'm1', vnfVirtualLinkDescId: 'internalVL1', resourceId: 'net-managed' }];
    const source = generateHot(flavour, {
      extVirtualLinks: [],
      extManagedVirtualLinks: managed,
      serverGroups: [],
    });
    const a = vnfc(flavour, 'VDU1', { flavour: 'm1.tiny', images: { VDU1: 'img' } });
    const built = buildStack(design(flavour, source, { vnfcs: [a], extManagedVirtualLinks: managed }));
    const res = resourcesOf(built)[`VDU1-${a.id}`];
    assert.deepEqual(res.depends_on, ['internalVL2_subnet']);
    assert.equal(res.properties['VDU1_CP2-network'], 'net-managed');
  });

  test('a VDU with no flavour anywhere is refused naming the VDU and the template', async () => {
    const { flavour, source } = await sampleBaseHot(STANDARD);
    const bare: Flavour = {
      ...flavour,
      vdus: flavour.vdus.map((v) => ({ ...v, virtualCompute: undefined })),
    };
    assert.throws(
      () => buildStack(design(bare, source, { vnfcs: [vnfc(bare, 'VDU1', { images: { VDU1: 'i' } })] })),
      (err: unknown) =>
        err instanceof InfraError &&
        err.code === 'INVALID_REQUEST' &&
        /BaseHOT\/simple\/sample3\.yaml/.test(err.message) &&
        /VDU VDU1 needs a Nova flavour/.test(err.message),
    );
  });
});

describe('BaseHOT of a Tacker sample with default UserData (one scaling group per VDU)', () => {
  test("the group gets the VDU's VNFC count as desired_capacity and the VDU's values", async () => {
    const { flavour, source } = await sampleBaseHot(DEFAULT_USERDATA);
    const vnfcs = [vnfc(flavour, 'VDU1'), vnfc(flavour, 'VDU1'), vnfc(flavour, 'VDU2')];
    const built = buildStack(
      design(flavour, source, {
        vnfcs: vnfcs.map((v) => ({ ...v, images: { [v.vduId]: 'img' }, flavour: 'm1.small' })),
      }),
    );
    assert.equal(built.layout, 'per-vdu');
    const nfv = nfvOf(built);
    assert.deepEqual(nfv.VDU.VDU1, { desired_capacity: 2, computeFlavourId: 'm1.small', vcImageId: 'img' });
    assert.deepEqual(nfv.VDU.VDU2, { computeFlavourId: 'm1.small', vcImageId: 'img' });
    assert.deepEqual(built.resources, {
      VDU1_scale_group: [vnfcs[0]?.id, vnfcs[1]?.id],
      VDU2: [vnfcs[2]?.id],
    });
    // As written, but for VDU2 built after the group it shares the affinity server group with.
    const expected = structuredClone(source.template) as {
      resources: Record<string, Record<string, unknown>>;
    };
    assert.ok(expected.resources.VDU2);
    expected.resources.VDU2.depends_on = ['VDU1_scale_group'];
    assert.deepEqual(built.template, expected, 'the template itself stays as written');
  });

  test("a scale out grows the group on the existing VNFCs' values, not the new VNFC's grant", async () => {
    const { flavour, source } = await sampleBaseHot(DEFAULT_USERDATA);
    const existing = vnfc(flavour, 'VDU1', { zone: 'az1', flavour: 'm1.tiny', images: { VDU1: 'old' } });
    // A new VNFC granted elsewhere: a shared value changed would make Heat replace every member.
    const added = vnfc(flavour, 'VDU1', { zone: 'az2', flavour: 'm1.small', images: { VDU1: 'new' } });
    const built = buildStack(
      design(flavour, source, {
        vnfcs: [added, existing, vnfc(flavour, 'VDU2', { flavour: 'm1.tiny', images: { VDU2: 'old' } })],
      }),
    );
    assert.deepEqual(nfvOf(built).VDU.VDU1, {
      desired_capacity: 2,
      computeFlavourId: 'm1.tiny',
      vcImageId: 'old',
    });
    assert.deepEqual(built.resources.VDU1_scale_group, [added.id, existing.id]);
  });

  test("a group is the VDU's when its member is given the VDU's nfv values, whatever its file name; a ResourceGroup too", async () => {
    const { flavour, source } = await sampleBaseHot(DEFAULT_USERDATA);
    const template: Tree = structuredClone(source.template);
    const group = template.resources.VDU1_scale_group;
    template.resources.VDU1_scale_group = {
      type: 'OS::Heat::ResourceGroup',
      properties: {
        count: group.properties.desired_capacity,
        resource_def: { ...group.properties.resource, type: 'base_hot_nested_VDU1.yaml' },
      },
    };
    const files = { 'base_hot_nested_VDU1.yaml': source.files['VDU1.yaml'] as string };
    const vnfcs = [vnfc(flavour, 'VDU1'), vnfc(flavour, 'VDU2')];
    const built = buildStack(design(flavour, { ...source, template, files }, { vnfcs }));
    assert.equal(built.layout, 'per-vdu');
    assert.deepEqual(built.resources, { VDU1_scale_group: [vnfcs[0]?.id], VDU2: [vnfcs[1]?.id] });
    assert.equal(nfvOf(built).VDU.VDU1.desired_capacity, 1);
  });

  test("Tacker's lcm-operation-user-data-class choice wins over the template's shape", async () => {
    const { flavour, source } = await sampleBaseHot(STANDARD);
    const built = buildStack(
      design(flavour, source, {
        layout: 'per-vdu',
        vnfcs: [vnfc(flavour, 'VDU1', { images: { VDU1: 'i' } })],
      }),
    );
    assert.equal(built.layout, 'per-vdu');
    assert.ok(resourcesOf(built).VDU1);
  });
});

describe('BaseHOT of a Tacker v1 sample (v1 parameter names, groups of literal size)', () => {
  test("flavor, image and zone get the VDU's values and each group the VDU's VNFC count", async () => {
    const { flavour, source } = await sampleBaseHot('functional6.zip');
    const vnfcs = [
      vnfc(flavour, 'VDU1', { zone: 'az1', flavour: 'm1.tiny', images: { VDU1: 'img1' } }),
      vnfc(flavour, 'VDU1', { zone: 'az1', flavour: 'm1.tiny', images: { VDU1: 'img1' } }),
      vnfc(flavour, 'VDU2', { flavour: 'm1.small', images: { VDU2: 'img2' } }),
    ];
    const built = buildStack(design(flavour, source, { vnfcs }));
    assert.equal(built.layout, 'per-vdu');
    const nfv = nfvOf(built) as Tree;
    assert.deepEqual(nfv.VDU.VDU1, { flavor: 'm1.tiny', image: 'img1' });
    assert.deepEqual(nfv.vdu.VDU1, { zone: 'az1' });
    assert.deepEqual(nfv.VDU.VDU2, { flavor: 'm1.small', image: 'img2' });
    const resources = resourcesOf(built);
    assert.equal(resources.VDU1_scale.properties.desired_capacity, 2);
    assert.equal(resources.VDU2_scale.properties.desired_capacity, 1);
    assert.deepEqual(built.resources, {
      VDU1_scale: [vnfcs[0]?.id, vnfcs[1]?.id],
      VDU2_scale: [vnfcs[2]?.id],
    });
  });
});

describe('a hostile BaseHOT is refused naming the file', () => {
  const TOP = 'BaseHOT/simple/top.yaml';
  const NESTED = 'BaseHOT/simple/nested/VDU1.yaml';
  const hot = (resources: string) => `heat_template_version: 2018-08-31\nresources:\n${resources}`;

  async function refused(
    files: Record<string, string>,
    pattern: RegExp,
    flavourFix?: (f: Flavour) => Flavour,
  ) {
    const base = flavourOf(await sampleVnfd(STANDARD));
    const names = Object.keys(files).sort();
    const flavour: Flavour = {
      ...base,
      baseHot: { main: TOP, nested: names.filter((n) => n.startsWith('BaseHOT/simple/nested/')) },
    };
    const pkg = await fixtureFiles(files);
    await assert.rejects(readBaseHot(pkg, flavourFix ? flavourFix(flavour) : flavour), (err: unknown) => {
      assert.ok(err instanceof InfraError, String(err));
      assert.equal(err.code, 'INVALID_REQUEST');
      assert.match(err.message, pattern);
      return true;
    });
  }

  test('a resource type given as a URL (Heat would fetch it)', () =>
    refused(
      { [TOP]: hot('  x:\n    type: http://169.254.169.254/latest/meta-data\n') },
      /top\.yaml.*points outside the package/,
    ));

  test('a scaling group whose member template is a URL', () =>
    refused(
      {
        [TOP]: hot(
          '  g:\n    type: OS::Heat::AutoScalingGroup\n    properties:\n      min_size: 1\n      max_size: 2\n      resource:\n        type: https://evil.example/t.yaml\n',
        ),
      },
      /resource type https:\/\/evil\.example\/t\.yaml points outside the package/,
    ));

  test('get_file of a path outside the BaseHOT folder, in a nested template', () =>
    refused(
      {
        [TOP]: hot('  v:\n    type: VDU1.yaml\n'),
        [NESTED]: hot(
          '  s:\n    type: OS::Nova::Server\n    properties:\n      user_data: { get_file: ../../Definitions/secret.yaml }\n',
        ),
      },
      /nested\/VDU1\.yaml.*get_file \.\.\/\.\.\/Definitions\/secret\.yaml points outside the package/,
    ));

  test('a nested template type the package does not ship', () =>
    refused(
      { [TOP]: hot('  v:\n    type: VDU9.yaml\n') },
      /resource type VDU9\.yaml is not a file of the package's BaseHOT folder/,
    ));

  test('resource types acting beyond the VNF', () =>
    refused({ [TOP]: hot('  u:\n    type: OS::Keystone::User\n') }, /OS::Keystone::User is not allowed/));

  test('YAML alias expansion beyond the limit', () => {
    const lines = ['heat_template_version: 2018-08-31', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    return refused({ [TOP]: `${lines.join('\n')}\nresources: {}\n` }, /top\.yaml.*not valid YAML/);
  });

  test('a template larger than the limit', () =>
    refused(
      { [TOP]: hot(`  x:\n    type: OS::Nova::Server\n    # ${'x'.repeat(1024 * 1024)}\n`) },
      /at most 1048576/,
    ));

  test('a file that is not a Heat template', () =>
    refused({ [TOP]: 'just: some yaml\n' }, /top\.yaml.*no heat_template_version/));
});

describe('a template generated from the VNFD', () => {
  test('per VNFC: a nested template per VDU with its server, ports, volumes and server group', async () => {
    const flavour = flavourOf(await sampleVnfd(STANDARD));
    const links = [extVl('net-ext', ['VDU1_CP1', 'VDU2_CP1'])];
    const source = generateHot(flavour, {
      extVirtualLinks: links,
      extManagedVirtualLinks: [],
      serverGroups: [],
    });
    const top = source.template.resources as Tree;
    assert.equal(top.internalVL1.type, 'OS::Neutron::Net');
    assert.equal(top.internalVL1_subnet.properties.cidr, '192.168.3.0/24', "the VNFD's l3_protocol_data");
    // Ports take addresses from the subnets: a VNFC is made after them and removed before them.
    assert.deepEqual(top.VDU1.depends_on, ['internalVL1_subnet', 'internalVL2_subnet']);
    assert.deepEqual(top.policy_antiaffinity_group, {
      type: 'OS::Nova::ServerGroup',
      properties: { policies: ['anti-affinity'] },
    });
    const vdu2 = JSON.parse(source.files['VDU2.yaml'] ?? '{}');
    assert.equal(vdu2.resources['VDU2-VirtualStorage'].type, 'OS::Cinder::Volume');
    assert.equal(vdu2.resources['VDU2-VirtualStorage'].properties.size, 1);
    // VDU2 has no image of its own: it boots from its volume.
    assert.deepEqual(vdu2.resources.VDU2.properties.block_device_mapping_v2, [
      { volume_id: { get_resource: 'VDU2-VirtualStorage' }, boot_index: 0 },
    ]);
    assert.deepEqual(vdu2.resources.VDU2.properties.scheduler_hints, {
      group: { get_param: 'server_group' },
    });
    assert.deepEqual(
      Object.keys(vdu2.resources)
        .filter((r) => r.startsWith('VDU2_CP'))
        .sort(),
      ['VDU2_CP1', 'VDU2_CP2', 'VDU2_CP3'],
    );

    const a = vnfc(flavour, 'VDU1', { zone: 'az2', flavour: 'm1.tiny', images: { VDU1: 'fake-image' } });
    const built = buildStack(design(flavour, source, { vnfcs: [a], extVirtualLinks: links }));
    assert.equal(built.layout, 'per-vnfc');
    assert.deepEqual(nfvOf(built).VDU[`VDU1-${a.id}`], {
      computeFlavourId: 'm1.tiny',
      locationConstraints: 'az2',
      name: `VDU1-${a.id}`,
      vnfcId: a.id,
      vcImageId: 'fake-image',
    });
  });

  test("the grant's server group policy wins: soft-anti-affinity with best effort", async () => {
    const flavour = flavourOf(await sampleVnfd(STANDARD));
    const source = generateHot(flavour, {
      extVirtualLinks: [],
      extManagedVirtualLinks: [],
      serverGroups: [{ id: 'policy_antiaffinity_group', policy: 'soft-anti-affinity', members: [] }],
    });
    assert.deepEqual((source.template.resources as Tree).policy_antiaffinity_group.properties.policies, [
      'soft-anti-affinity',
    ]);
  });

  test('CPs on no link of the request get no port; a VDU without any gets none at all', async () => {
    const flavour = flavourOf(await sampleVnfd(STANDARD));
    const source = generateHot(flavour, {
      extVirtualLinks: [],
      extManagedVirtualLinks: [],
      serverGroups: [],
    });
    const vdu1 = JSON.parse(source.files['VDU1.yaml'] ?? '{}');
    assert.equal(vdu1.resources.VDU1_CP1, undefined);
    assert.ok(vdu1.resources.VDU1_CP2);
    const unlinked = generateHot(
      { ...flavour, vduCps: [] },
      { extVirtualLinks: [], extManagedVirtualLinks: [], serverGroups: [] },
    );
    const bare = JSON.parse(unlinked.files['VDU1.yaml'] ?? '{}');
    // Nova needs networks past microversion 2.36: a server without ports asks for none.
    assert.deepEqual(bare.resources.VDU1.properties.networks, [{ allocate_network: 'none' }]);
  });
});

describe('affinity server groups of a BaseHOT', () => {
  test('the members of one affinity group are built one after another, oldest first; others are not ordered', () => {
    const template = {
      resources: {
        together: { type: 'OS::Nova::ServerGroup', properties: { policies: ['affinity'] } },
        apart: { type: 'OS::Nova::ServerGroup', properties: { policies: ['anti-affinity'] } },
        a: { type: 'VDU1.yaml', properties: { affinity: { get_resource: 'together' } } },
        b: { type: 'VDU1.yaml', properties: { affinity: { get_resource: 'together' } }, depends_on: 'net' },
        c: { type: 'VDU2.yaml', properties: { hints: [{ group: { get_resource: 'together' } }] } },
        d: { type: 'VDU3.yaml', properties: { group: { get_resource: 'apart' } } },
        e: { type: 'VDU3.yaml', properties: { group: { get_resource: 'apart' } } },
      },
    };
    orderAffinityMembers(template);
    const r = template.resources as Record<string, { depends_on?: unknown }>;
    assert.equal(r.a?.depends_on, undefined);
    assert.deepEqual(r.b?.depends_on, ['net', 'a']);
    assert.deepEqual(r.c?.depends_on, ['b']);
    assert.equal(r.d?.depends_on, undefined, 'anti-affinity members are built at once');
    assert.equal(r.e?.depends_on, undefined);
  });
});
