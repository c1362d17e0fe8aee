/**
 * VDUs (`tosca.nodes.nfv.Vdu.Compute` and derived types): instance bounds, compute
 * requirements (what granting asks for), attached storages and boot data.
 */
import type { NodeTemplate } from '../tosca/model.ts';
import { swImageArtifacts } from './images.ts';
import { nodesOfType, requirementTargets, type TemplateScope } from './scope.ts';
import { SOL001 } from './sol001.ts';
import { bool, isRecord, num, rec, sizeBytes, str } from './values.ts';
import type { Vdu, VirtualCompute } from './vnfd.ts';

function readVirtualCompute(node: NodeTemplate): VirtualCompute | undefined {
  const cap = node.capabilities.virtual_compute;
  if (!cap) return undefined;
  const p = cap.properties;
  const cpu = rec(p.virtual_cpu);
  const local = Array.isArray(p.virtual_local_storage) ? p.virtual_local_storage : [];
  const additional = rec(p.requested_additional_capabilities);
  return {
    numVirtualCpu: num(cpu.num_virtual_cpu),
    cpuArchitecture: str(cpu.cpu_architecture),
    virtualMemSize: sizeBytes(rec(p.virtual_memory).virtual_mem_size),
    localStorageSizes: local
      .map((s) => sizeBytes(rec(s).size_of_storage))
      .filter((s): s is number => s !== undefined),
    // Tacker maps requested_additional_capability_name to the Nova flavor.
    requestedAdditionalCapabilityNames: Object.values(additional)
      .map((c) => str(rec(c).requested_additional_capability_name))
      .filter((s): s is string => s !== undefined),
    raw: p,
  };
}

export function readVdus(scope: TemplateScope): Vdu[] {
  return nodesOfType(scope, SOL001.vdu)
    .map((node): Vdu => {
      const p = node.properties;
      const profile = rec(p.vdu_profile);
      return {
        id: node.name,
        type: node.type,
        name: str(p.name) ?? node.name,
        description: str(p.description),
        vduProfile: {
          minNumberOfInstances: num(profile.min_number_of_instances) ?? 0,
          maxNumberOfInstances: num(profile.max_number_of_instances) ?? 0,
        },
        virtualCompute: readVirtualCompute(node),
        virtualStorages: requirementTargets(node, 'virtual_storage'),
        bootOrder: bool(p.boot_order),
        bootData: p.boot_data,
        swImage:
          swImageArtifacts(scope.types, node).length > 0 && isRecord(p.sw_image_data) ? node.name : undefined,
        swImageName: str(rec(p.sw_image_data).name),
        monitoringParameters: p.monitoring_parameters,
        loc: node.loc,
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
