/**
 * The model over real package folders: fixture VNFDs written to a temp dir, read with the
 * directory reader, the CSAR reader and the TOSCA loader, as onboarding does.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDirectoryPackage } from '../../../src/vnfd/csar/directory-reader.ts';
import { readCsar } from '../../../src/vnfd/csar/read-csar.ts';
import { type ExtractResult, extractVnfd } from '../../../src/vnfd/model/extract.ts';
import { loadTosca } from '../../../src/vnfd/tosca/load.ts';

const SOL001 = 'https://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1';

const META = `TOSCA-Meta-File-Version: 1.0
CSAR-Version: 1.1
Created-By: test
Entry-Definitions: Definitions/top.yaml
`;

const TYPES = `tosca_definitions_version: tosca_simple_yaml_1_2
imports:
  - ${SOL001}/etsi_nfv_sol001_common_types.yaml
  - ${SOL001}/etsi_nfv_sol001_vnfd_types.yaml
node_types:
  company.VNF:
    derived_from: tosca.nodes.nfv.VNF
    properties:
      descriptor_id:
        type: string
        default: 11111111-2222-3333-4444-555555555555
      descriptor_version:
        type: string
        default: '1.1'
      provider:
        type: string
        default: Acme
      product_name:
        type: string
        default: Demo
      software_version:
        type: string
        default: '2.0'
      vnfm_info:
        type: list
        entry_schema:
          type: string
        default: [ '0:tacker' ]
      flavour_id:
        type: string
        default: simple
      flavour_description:
        type: string
        default: ''
      configurable_properties:
        type: map
        required: false
    interfaces:
      Vnflcm:
        type: tosca.interfaces.nfv.Vnflcm
  company.Compute:
    derived_from: tosca.nodes.nfv.Vdu.Compute
`;

const TOP = `tosca_definitions_version: tosca_simple_yaml_1_2
imports:
  - ${SOL001}/etsi_nfv_sol001_common_types.yaml
  - ${SOL001}/etsi_nfv_sol001_vnfd_types.yaml
  - types.yaml
  - df.yaml
topology_template:
  inputs:
    selected_flavour:
      type: string
      default: simple
  node_templates:
    VNF:
      type: company.VNF
      properties:
        flavour_id: { get_input: selected_flavour }
        descriptor_id: 11111111-2222-3333-4444-555555555555
        provider: Acme
        product_name: Demo
        software_version: '2.0'
        descriptor_version: '1.1'
        vnfm_info: [ '0:tacker' ]
        configurable_properties:
          is_autoheal_enabled: true
`;

const DF = `tosca_definitions_version: tosca_simple_yaml_1_2
imports:
  - ${SOL001}/etsi_nfv_sol001_common_types.yaml
  - ${SOL001}/etsi_nfv_sol001_vnfd_types.yaml
  - types.yaml
topology_template:
  substitution_mappings:
    node_type: company.VNF
    properties:
      flavour_id: simple
    requirements:
      virtual_link_external: [ CP1, virtual_link ]
  node_templates:
    VNF:
      type: company.VNF
      properties:
        flavour_description: Simple
      interfaces:
        Vnflcm:
          instantiate_start:
            implementation: hook
          heal_rollback_end:
            implementation: hook
      artifacts:
        hook:
          type: tosca.artifacts.Implementation.Python
          file: ../Scripts/hook.py
    VDU1:
      type: company.Compute
      properties:
        name: VDU1
        description: first
        vdu_profile:
          min_number_of_instances: 1
          max_number_of_instances: 3
        sw_image_data:
          name: img
          version: '1'
          checksum:
            algorithm: sha-256
            hash: aaaa
          container_format: bare
          disk_format: qcow2
          min_disk: 1 GB
          min_ram: 8192.5 MiB
          size: 1.75 GiB
      artifacts:
        sw_image:
          type: tosca.artifacts.nfv.SwImage
          file: ../Files/images/img.qcow2
      capabilities:
        virtual_compute:
          properties:
            virtual_memory:
              virtual_mem_size: 512 MiB
            virtual_cpu:
              num_virtual_cpu: 2
      requirements:
        - virtual_storage: Volume
    VDU2:
      type: tosca.nodes.nfv.Vdu.Compute
      properties:
        name: VDU2
        description: second
        vdu_profile:
          min_number_of_instances: 1
          max_number_of_instances: 2
      capabilities:
        virtual_compute:
          properties:
            virtual_memory:
              virtual_mem_size: 1 GB
            virtual_cpu:
              num_virtual_cpu: 1
    Volume:
      type: tosca.nodes.nfv.Vdu.VirtualBlockStorage
      properties:
        virtual_block_storage_data:
          size_of_storage: 10 GiB
    CP1:
      type: tosca.nodes.nfv.VduCp
      properties:
        layer_protocols: [ ipv4 ]
        order: 0
      requirements:
        - virtual_binding: VDU1
    CP2:
      type: tosca.nodes.nfv.VduCp
      properties:
        layer_protocols: [ ipv4 ]
      requirements:
        - virtual_binding: VDU2
        - virtual_link: VL1
    VL1:
      type: tosca.nodes.nfv.VnfVirtualLink
      properties:
        connectivity_type:
          layer_protocols: [ ipv4 ]
        vl_profile:
          max_bitrate_requirements:
            root: 1000
          min_bitrate_requirements:
            root: 100
  groups:
    both:
      type: tosca.groups.nfv.PlacementGroup
      members: [ VDU1, VDU2 ]
  policies:
    - scaling_aspects:
        type: tosca.policies.nfv.ScalingAspects
        properties:
          aspects:
            vdu2_aspect:
              name: vdu2_aspect
              description: scale VDU2
              max_scale_level: 1
              step_deltas: [ delta_1 ]
    - VDU2_deltas:
        type: tosca.policies.nfv.VduScalingAspectDeltas
        properties:
          aspect: vdu2_aspect
          deltas:
            delta_1:
              number_of_instances: 1
        targets: [ VDU2 ]
    - VDU2_initial_delta:
        type: tosca.policies.nfv.VduInitialDelta
        properties:
          initial_delta:
            number_of_instances: 1
        targets: [ VDU2 ]
    - instantiation_levels:
        type: tosca.policies.nfv.InstantiationLevels
        properties:
          levels:
            small:
              description: small
              scale_info:
                vdu2_aspect:
                  scale_level: 0
            large:
              description: large
              scale_info:
                vdu2_aspect:
                  scale_level: 1
          default_level: small
    - VDU1_levels:
        type: tosca.policies.nfv.VduInstantiationLevels
        properties:
          levels:
            small:
              number_of_instances: 1
            large:
              number_of_instances: 3
        targets: [ VDU1 ]
    - spread:
        type: tosca.policies.nfv.AntiAffinityRule
        targets: [ both ]
        properties:
          scope: zone
`;

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function extractPackage(edit: (df: string) => string = (df) => df): Promise<ExtractResult> {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-vnfd-model-'));
  dirs.push(dir);
  const files: Record<string, string> = {
    'TOSCA-Metadata/TOSCA.meta': META,
    'Definitions/top.yaml': TOP,
    'Definitions/types.yaml': TYPES,
    'Definitions/df.yaml': edit(DF),
    'Scripts/hook.py': '# hook\n',
    'Files/images/img.qcow2': 'image\n',
    'BaseHOT/simple/top.hot.yaml': 'heat_template_version: 2013-05-23\n',
    'BaseHOT/simple/nested/VDU1.yaml': 'heat_template_version: 2013-05-23\n',
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  const pkg = await openDirectoryPackage(dir);
  assert.ok(pkg.files);
  try {
    const info = await readCsar(pkg.files);
    assert.equal(info.entryDefinitions, 'Definitions/top.yaml');
    const tosca = await loadTosca(pkg.files, info.entryDefinitions);
    assert.deepEqual(
      tosca.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    return extractVnfd(tosca, info, { fileNames: pkg.files.names });
  } finally {
    await pkg.files.close();
  }
}

function errorCodes(r: ExtractResult): string[] {
  return r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
}

describe('VNFD model from a package folder', () => {
  it('extracts identity, flavour, VDUs, connectivity, storage and images', async () => {
    const r = await extractPackage();
    assert.deepEqual(errorCodes(r), []);
    const vnfd = r.vnfd;
    assert.ok(vnfd);
    assert.equal(vnfd.vnf.descriptorId, '11111111-2222-3333-4444-555555555555');
    assert.equal(vnfd.vnf.provider, 'Acme');
    assert.equal(vnfd.vnf.softwareVersion, '2.0');
    assert.equal(vnfd.vnf.descriptorVersion, '1.1');
    assert.deepEqual(vnfd.vnf.configurableProperties, { is_autoheal_enabled: true });
    const [f] = vnfd.flavours;
    assert.equal(f.flavourId, 'simple');
    assert.equal(f.description, 'Simple');
    assert.equal(f.file, 'Definitions/df.yaml');
    assert.deepEqual(
      f.vdus.map((v) => [v.id, v.type, v.vduProfile.minNumberOfInstances, v.vduProfile.maxNumberOfInstances]),
      [
        ['VDU1', 'company.Compute', 1, 3],
        ['VDU2', 'tosca.nodes.nfv.Vdu.Compute', 1, 2],
      ],
    );
    assert.equal(f.vdus[0].virtualCompute?.virtualMemSize, 512 * 2 ** 20);
    assert.equal(f.vdus[1].virtualCompute?.virtualMemSize, 1e9);
    assert.deepEqual(f.vdus[0].virtualStorages, ['Volume']);
    assert.deepEqual(
      f.vduCps.map((c) => [c.id, c.vdu, c.virtualLink]),
      [
        ['CP1', 'VDU1', undefined],
        ['CP2', 'VDU2', 'VL1'],
      ],
    );
    assert.deepEqual(
      f.virtualLinks.map((v) => v.id),
      ['VL1'],
    );
    assert.deepEqual(
      f.storages.map((s) => [s.id, s.kind, s.sizeOfStorage]),
      [['Volume', 'block', 10 * 2 ** 30]],
    );
    assert.deepEqual(
      vnfd.softwareImages.map((i) => [
        i.id,
        i.flavourId,
        i.size,
        i.minDisk,
        i.minRam,
        i.provider,
        i.imagePath,
      ]),
      [['VDU1', 'simple', 1879048192, 1e9, 8590458880, '', 'Files/images/img.qcow2']],
    );
  });

  it('extracts levels, scaling, placement, hooks and BaseHOT', async () => {
    const f = (await extractPackage()).vnfd?.flavours[0];
    assert.ok(f);
    assert.equal(f.instantiationLevels?.defaultLevel, 'small');
    assert.deepEqual(
      f.instantiationLevels?.levels.map((l) => [l.id, l.scaleInfo, l.vduInstances]),
      [
        ['small', { vdu2_aspect: 0 }, { VDU1: 1 }],
        ['large', { vdu2_aspect: 1 }, { VDU1: 3 }],
      ],
    );
    assert.deepEqual(
      f.scalingAspects.map((a) => [a.id, a.maxScaleLevel, a.stepDeltas, a.vduDeltas]),
      [['vdu2_aspect', 1, ['delta_1'], { VDU2: { delta_1: 1 } }]],
    );
    assert.deepEqual(f.initialDeltas, { VDU2: 1 });
    assert.deepEqual(
      f.placementRules.map((p) => [p.kind, p.scope, p.members]),
      [['anti-affinity', 'zone', ['VDU1', 'VDU2']]],
    );
    assert.deepEqual(
      f.lcmOperations.map((o) => [o.name, o.artifact?.path]),
      [
        ['heal_rollback_end', 'Scripts/hook.py'],
        ['instantiate_start', 'Scripts/hook.py'],
      ],
    );
    assert.deepEqual(f.baseHot, {
      main: 'BaseHOT/simple/top.hot.yaml',
      nested: ['BaseHOT/simple/nested/VDU1.yaml'],
    });
  });

  it('rejects VDU levels without an InstantiationLevels policy', async () => {
    const r = await extractPackage((df) =>
      df
        .replace(/ {4}- instantiation_levels:[\s\S]*?default_level: small\n/, '')
        .replace(/scale_info:[\s\S]*?scale_level: \d\n/g, ''),
    );
    assert.equal(r.vnfd, undefined);
    assert.ok(errorCodes(r).includes('VNFD_INSTANTIATION_LEVELS_MISSING'));
  });

  it('rejects an image without sw_image_data, and two images on one node', async () => {
    const missing = await extractPackage((df) =>
      df.replace(/ {8}sw_image_data:[\s\S]*?size: 1.75 GiB\n/, ''),
    );
    assert.ok(errorCodes(missing).includes('VNFD_SWIMAGE_DATA_MISSING'));
    const two = await extractPackage((df) =>
      df.replace(
        '          file: ../Files/images/img.qcow2\n',
        '          file: ../Files/images/img.qcow2\n        second: ../Files/images/img.qcow2\n',
      ),
    );
    const d = two.diagnostics.find((x) => x.code === 'VNFD_SWIMAGE_MULTIPLE');
    assert.ok(d);
    assert.match(d.message, /VDU1/);
    assert.equal(d.file, 'Definitions/df.yaml');
  });

  it('rejects a level that is not defined and a vdu_profile with min > max', async () => {
    const r = await extractPackage((df) =>
      df
        .replace(
          '            large:\n              number_of_instances: 3',
          '            huge:\n              number_of_instances: 3',
        )
        .replace(
          'min_number_of_instances: 1\n          max_number_of_instances: 2',
          'min_number_of_instances: 3\n          max_number_of_instances: 2',
        ),
    );
    assert.deepEqual(errorCodes(r).sort(), ['VNFD_LEVEL_UNKNOWN', 'VNFD_VDU_PROFILE_RANGE']);
    const level = r.diagnostics.find((d) => d.code === 'VNFD_LEVEL_UNKNOWN');
    assert.match(level?.message ?? '', /huge/);
    assert.equal(typeof level?.line, 'number');
  });
});
