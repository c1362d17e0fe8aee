/**
 * A complete two-file VNFD (entry + one flavour) in contract form, modelled on Tacker's
 * helloworld3 samples, that each test can alter.
 */
import type { ToscaLoadResult } from '../../../src/vnfd/tosca/model.ts';
import { IDENTITY, load, type NodeSpec, type TemplateSpec, template } from './contract-fixture.ts';

export const TOP = 'Definitions/top.yaml';
export const DF = 'Definitions/df_simple.yaml';

export function topSpec(): TemplateSpec {
  return {
    file: TOP,
    nodes: {
      VNF: {
        type: 'company.provider.VNF',
        properties: {
          ...IDENTITY,
          configurable_properties: { is_autoheal_enabled: true },
          modifiable_attributes: { extensions: { a: 1 } },
          localization_languages: ['en'],
        },
        interfaces: { Vnflcm: { heal_start: { implementation: 'mgmt' } } },
        artifacts: { mgmt: { type: 'tosca.artifacts.Implementation.Python', file: '../Scripts/mgmt.py' } },
      },
    },
  };
}

export function dfNodes(): Record<string, NodeSpec> {
  return {
    VNF: {
      type: 'company.provider.VNF',
      properties: { flavour_description: 'A simple flavour' },
      interfaces: {
        Vnflcm: {
          instantiate_start: { implementation: 'script' },
          instantiate_rollback_end: { implementation: 'script' },
          heal_start: {},
        },
      },
      artifacts: { script: { type: 'tosca.artifacts.Implementation.Python', file: '../Scripts/sample.py' } },
    },
    VDU1: {
      type: 'tosca.nodes.nfv.Vdu.Compute',
      properties: {
        name: 'VDU1',
        description: 'VDU1 compute node',
        vdu_profile: { min_number_of_instances: 1, max_number_of_instances: 3 },
        boot_order: false,
        sw_image_data: {
          name: 'cirros',
          version: '0.5.2',
          checksum: { algorithm: 'sha-256', hash: 'abc' },
          container_format: 'bare',
          disk_format: 'qcow2',
          min_disk: '1 GB',
          size: '1.75 GiB',
        },
      },
      artifacts: { sw_image: { type: 'tosca.artifacts.nfv.SwImage', file: '../Files/images/cirros.img' } },
      capabilities: {
        virtual_compute: {
          virtual_memory: { virtual_mem_size: '512 MB' },
          virtual_cpu: { num_virtual_cpu: 2 },
          virtual_local_storage: [{ size_of_storage: '3 GiB' }],
          requested_additional_capabilities: {
            properties: { requested_additional_capability_name: 'm1.tiny', support_mandatory: true },
          },
        },
      },
      requirements: [['virtual_storage', 'VirtualStorage']],
    },
    VDU2: {
      type: 'company.Vdu.Compute',
      properties: { name: 'VDU2', vdu_profile: { min_number_of_instances: 1, max_number_of_instances: 2 } },
    },
    VirtualStorage: {
      type: 'tosca.nodes.nfv.Vdu.VirtualBlockStorage',
      properties: {
        virtual_block_storage_data: { size_of_storage: '30 GB', rdma_enabled: true },
        sw_image_data: {
          name: 'volume image',
          provider: 'Acme',
          version: '1',
          checksum: { algorithm: 'sha-512', hash: 'def' },
          container_format: 'bare',
          disk_format: 'raw',
          min_disk: '2 GB',
          min_ram: '8192.5 MiB',
          size: 2000000000,
        },
      },
      artifacts: {
        image: {
          type: 'tosca.artifacts.nfv.SwImage',
          file: './Files/images/vol.img',
          path: 'Definitions/Files/images/vol.img',
        },
      },
    },
    ObjStore: {
      type: 'tosca.nodes.nfv.Vdu.VirtualObjectStorage',
      properties: { virtual_object_storage_data: { max_size_of_storage: '5 GiB' } },
    },
    CP1: {
      type: 'tosca.nodes.nfv.VduCp',
      properties: { layer_protocols: ['ipv4'], order: 0, vnic_type: 'direct' },
      requirements: [['virtual_binding', 'VDU1']],
    },
    CP2: {
      type: 'company.VduCp',
      properties: { layer_protocols: ['ipv4'], order: 1 },
      requirements: [
        ['virtual_binding', 'VDU2'],
        ['virtual_link', 'internalVL1'],
      ],
    },
    internalVL1: {
      type: 'tosca.nodes.nfv.VnfVirtualLink',
      properties: {
        connectivity_type: { layer_protocols: ['ipv4'] },
        description: 'internal',
        vl_profile: { max_bitrate_requirements: { root: 1 } },
      },
    },
    ExtCP: {
      type: 'tosca.nodes.nfv.VnfExtCp',
      properties: { layer_protocols: ['ipv4'] },
      requirements: [['internal_virtual_link', 'internalVL1']],
    },
  };
}

export function dfSpec(): TemplateSpec {
  return {
    file: DF,
    substitution: {
      nodeType: 'company.provider.VNF',
      properties: { flavour_id: 'simple' },
      requirements: {
        virtual_link_external: ['CP1', 'virtual_link'],
        virtual_link_external2: ['ExtCP', 'external_virtual_link'],
      },
    },
    nodes: dfNodes(),
    groups: [{ name: 'group1', type: 'tosca.groups.nfv.PlacementGroup', members: ['VDU1', 'VDU2'] }],
    policies: [
      {
        name: 'scaling_aspects',
        type: 'tosca.policies.nfv.ScalingAspects',
        properties: {
          aspects: {
            worker: { name: 'worker_aspect', description: 'd', max_scale_level: 2, step_deltas: ['delta_1'] },
          },
        },
      },
      {
        name: 'VDU2_initial_delta',
        type: 'tosca.policies.nfv.VduInitialDelta',
        properties: { initial_delta: { number_of_instances: 1 } },
        targets: ['VDU2'],
      },
      {
        name: 'VDU2_deltas',
        type: 'tosca.policies.nfv.VduScalingAspectDeltas',
        properties: { aspect: 'worker', deltas: { delta_1: { number_of_instances: 1 } } },
        targets: ['VDU2'],
      },
      {
        name: 'instantiation_levels',
        type: 'tosca.policies.nfv.InstantiationLevels',
        properties: {
          levels: {
            level_1: { description: 'small', scale_info: { worker: { scale_level: 0 } } },
            level_2: { description: 'large', scale_info: { worker: { scale_level: 1 } } },
          },
          default_level: 'level_1',
        },
      },
      {
        name: 'VDU1_levels',
        type: 'tosca.policies.nfv.VduInstantiationLevels',
        properties: { levels: { level_1: { number_of_instances: 1 }, level_2: { number_of_instances: 3 } } },
        targets: ['VDU1'],
      },
      {
        name: 'VL_levels',
        type: 'tosca.policies.nfv.VirtualLinkInstantiationLevels',
        properties: { levels: { level_1: { bitrate_requirements: { root: 1 } } } },
        targets: ['internalVL1'],
      },
      { name: 'anti', type: 'company.AntiAffinityRule', properties: { scope: 'zone' }, targets: ['group1'] },
      {
        name: 'aff',
        type: 'tosca.policies.nfv.AffinityRule',
        properties: { scope: 'nfvi_node' },
        targets: ['VDU1', 'internalVL1'],
      },
    ],
  };
}

export function standard(alter: (top: TemplateSpec, df: TemplateSpec) => void = () => {}): ToscaLoadResult {
  const top = topSpec();
  const df = dfSpec();
  alter(top, df);
  return load(template(top), template(df));
}
