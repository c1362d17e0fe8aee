/**
 * The typed VNFD model: what onboarding, LCM (instantiate/scale/heal), granting and the
 * package API read from a SOL001 VNFD, extracted once from the loaded TOSCA templates
 * (see extract.ts) instead of each consumer walking raw YAML.
 *
 * Names are the SOL001 ones in camelCase. Sizes are in bytes, computed like Tacker
 * (MB/GB = 10^6/10^9, MiB/GiB = 2^20/2^30, fractions truncated).
 */
import type { AdditionalArtifact } from '../csar/artifacts.ts';
import type { Location } from '../diagnostics.ts';

export type { AdditionalArtifact };

/** The whole VNFD of a package. */
export interface Vnfd {
  /** Package path of the entry definitions file. */
  entryDefinitions: string;
  /** The VNF node of the entry template. */
  vnf: VnfProperties;
  /** Deployment flavours, sorted by flavourId. */
  flavours: Flavour[];
  /** Every flavour's software images, sorted by (flavourId, id) — VnfPkgInfo.softwareImages. */
  softwareImages: SoftwareImage[];
  /** Package files that realise the VNF on a VIM, whatever the flavour (Kubernetes manifests, Helm charts, Terraform). */
  infraArtifacts: PackageInfraArtifacts;
  /** The package's hashed non-image artifacts (VnfPkgInfo.additionalArtifacts), sorted by path. */
  additionalArtifacts: AdditionalArtifact[];
}

/** Properties of the VNF node (`tosca.nodes.nfv.VNF` or derived) of the entry template. */
export interface VnfProperties {
  /** Node template name (usually `VNF`). */
  nodeName: string;
  /** Node type (e.g. `company.provider.VNF`). */
  nodeType: string;
  /** `descriptor_id` → vnfdId. */
  descriptorId: string;
  /** `descriptor_version` → vnfdVersion. */
  descriptorVersion: string;
  /** `provider` → vnfProvider. */
  provider: string;
  /** `product_name` → vnfProductName. */
  productName: string;
  /** `software_version` → vnfSoftwareVersion. */
  softwareVersion: string;
  /** `product_info_name`. */
  productInfoName?: string;
  /** `product_info_description`. */
  productInfoDescription?: string;
  /** `vnfm_info`: VNFMs compatible with the VNF. */
  vnfmInfo: string[];
  /** `localization_languages`. */
  localizationLanguages: string[];
  /** `default_localization_language`. */
  defaultLocalizationLanguage?: string;
  /** `configurable_properties` as written (default vnfConfigurableProperties; Tacker ignores them, §12.16). */
  configurableProperties?: Record<string, unknown>;
  /** `modifiable_attributes` (extensions, metadata) as written. */
  modifiableAttributes?: Record<string, unknown>;
  /** `lcm_operations_configuration` as written (per-operation parameters). */
  lcmOperationsConfiguration?: Record<string, unknown>;
  /** `monitoring_parameters` as written. */
  monitoringParameters?: unknown;
  /** `flavour_id` when written on the node and a string (a single-file VNFD, or an input with a value); absent otherwise. */
  flavourId?: string;
  /** `flavour_description` when set on the entry VNF node. */
  flavourDescription?: string;
  /** Where the VNF node was written. */
  loc: Location;
}

/** One deployment flavour: a template whose substitution_mappings map to the VNF node type. */
export interface Flavour {
  /** `flavour_id`. */
  flavourId: string;
  /** `flavour_description` of the flavour's VNF node (falling back to the entry VNF node's). */
  description?: string;
  /** Package path of the flavour's template file. */
  file: string;
  /** The substituted node type (`substitution_mappings.node_type`). */
  nodeType: string;
  /** `substitution_mappings.requirements`: VNF requirement (e.g. `virtual_link_external`) → [node, requirement]. */
  externalRequirements: Record<string, string[]>;
  /** Virtualisation deployment units (Vdu.Compute and derived types), sorted by name. */
  vdus: Vdu[];
  /** Connection points of VDUs (VduCp and derived). */
  vduCps: VduCp[];
  /** Internal virtual links (VnfVirtualLink and derived). */
  virtualLinks: VirtualLink[];
  /** External connection points (VnfExtCp and derived). */
  extCps: ExtCp[];
  /** Virtual storages (block, object, file). */
  storages: Storage[];
  /** Images of this flavour's VDUs and storages, sorted by id. */
  softwareImages: SoftwareImage[];
  /** Instantiation levels (from the InstantiationLevels policy and the VDU/VL level policies); absent without an InstantiationLevels policy. */
  instantiationLevels?: InstantiationLevels;
  /** Scaling aspects with their per-VDU deltas. */
  scalingAspects: ScalingAspect[];
  /** VDU name → `VduInitialDelta.initial_delta.number_of_instances`. */
  initialDeltas: Record<string, number>;
  /** `tosca.groups.nfv.PlacementGroup` groups. */
  placementGroups: PlacementGroup[];
  /** Affinity and anti-affinity rules. */
  placementRules: PlacementRule[];
  /** Vnflcm interface operations (flavour VNF node over entry VNF node), sorted by name. */
  lcmOperations: LcmOperation[];
  /** BaseHOT templates for this flavour (OpenStack). */
  baseHot: BaseHot;
}

/** `vdu_profile` instance bounds. */
export interface VduProfile {
  /** `min_number_of_instances`. */
  minNumberOfInstances: number;
  /** `max_number_of_instances`. */
  maxNumberOfInstances: number;
}

/** `virtual_compute` capability, reduced to what placement and granting need. */
export interface VirtualCompute {
  /** `virtual_cpu.num_virtual_cpu`. */
  numVirtualCpu?: number;
  /** `virtual_cpu.cpu_architecture`. */
  cpuArchitecture?: string;
  /** `virtual_memory.virtual_mem_size` in bytes. */
  virtualMemSize?: number;
  /** `virtual_local_storage[].size_of_storage` in bytes. */
  localStorageSizes: number[];
  /** `requested_additional_capabilities.*.requested_additional_capability_name` (e.g. a Nova flavor `m1.tiny`). */
  requestedAdditionalCapabilityNames: string[];
  /** The capability properties as written (after defaults). */
  raw: Record<string, unknown>;
}

/** A VDU (`tosca.nodes.nfv.Vdu.Compute` or derived). */
export interface Vdu {
  /** Node template name (the VDU id used by LCM). */
  id: string;
  /** Node type. */
  type: string;
  /** `name` property. */
  name: string;
  /** `description` property. */
  description?: string;
  /** `vdu_profile`. */
  vduProfile: VduProfile;
  /** `virtual_compute` capability, when given. */
  virtualCompute?: VirtualCompute;
  /** Targets of the `virtual_storage` requirements (storage node names). */
  virtualStorages: string[];
  /** `boot_order` property. */
  bootOrder?: boolean;
  /** `boot_data` property as written. */
  bootData?: unknown;
  /** Id of the image the VDU boots (its own SwImage node name), when it has one. */
  swImage?: string;
  /** `sw_image_data.name`, also without an image artifact (Tacker then expects the VIM to have it). */
  swImageName?: string;
  /** `monitoring_parameters` as written. */
  monitoringParameters?: unknown;
  /** Where the node was written. */
  loc: Location;
}

/** A VDU connection point (`tosca.nodes.nfv.VduCp` or derived). */
export interface VduCp {
  /** Node template name. */
  id: string;
  /** Node type. */
  type: string;
  /** Target of `virtual_binding` (the VDU). */
  vdu?: string;
  /** Target of `virtual_link` (an internal VL); absent when the link is external. */
  virtualLink?: string;
  /** `order` property. */
  order?: number;
  /** `layer_protocols`. */
  layerProtocols: string[];
  /** `vnic_type`. */
  vnicType?: string;
  /** Where the node was written. */
  loc: Location;
}

/** An internal virtual link (`tosca.nodes.nfv.VnfVirtualLink` or derived). */
export interface VirtualLink {
  /** Node template name. */
  id: string;
  /** Node type. */
  type: string;
  /** `description`. */
  description?: string;
  /** `connectivity_type.layer_protocols`. */
  layerProtocols: string[];
  /** `vl_profile` as written (bitrates, protocol data). */
  vlProfile?: Record<string, unknown>;
  /** Where the node was written. */
  loc: Location;
}

/** An external connection point (`tosca.nodes.nfv.VnfExtCp` or derived). */
export interface ExtCp {
  /** Node template name. */
  id: string;
  /** Node type. */
  type: string;
  /** Target of `internal_virtual_link` (the internal VL it exposes). */
  internalVirtualLink?: string;
  /** Target of `external_virtual_link`, or the VNF requirement mapping it, when given. */
  externalVirtualLink?: string;
  /** `layer_protocols`. */
  layerProtocols: string[];
  /** Where the node was written. */
  loc: Location;
}

/** A virtual storage node. */
export interface Storage {
  /** Node template name. */
  id: string;
  /** Node type. */
  type: string;
  /** Block (Vdu.VirtualBlockStorage), object (VirtualObjectStorage) or file (VirtualFileStorage). */
  kind: 'block' | 'object' | 'file';
  /** Size in bytes: `size_of_storage` (block/file) or `max_size_of_storage` (object). */
  sizeOfStorage?: number;
  /** `virtual_block_storage_data.rdma_enabled`. */
  rdmaEnabled?: boolean;
  /** Id of the image the volume is created from (its own SwImage node name), when it has one. */
  swImage?: string;
  /** `sw_image_data.name`, also without an image artifact (Tacker then expects the VIM to have it). */
  swImageName?: string;
  /** Where the node was written. */
  loc: Location;
}

/** A software image: one per VDU / storage node with a SwImage artifact, per flavour (VnfPkgInfo.softwareImages). */
export interface SoftwareImage {
  /** Node name (VnfPkgInfo softwareImages[].id). */
  id: string;
  /** Flavour it belongs to. */
  flavourId: string;
  /** `sw_image_data.name`. */
  name: string;
  /** `sw_image_data.provider`, "" when absent. */
  provider: string;
  /** `sw_image_data.version`. */
  version: string;
  /** `sw_image_data.checksum`. */
  checksum: { algorithm: string; hash: string };
  /** `sw_image_data.container_format`. */
  containerFormat: string;
  /** `sw_image_data.disk_format`. */
  diskFormat: string;
  /** `min_disk` in bytes. */
  minDisk: number;
  /** `min_ram` in bytes, 0 when absent. */
  minRam: number;
  /** `size` in bytes. */
  size: number;
  /** Artifact file as written, leading `.` and `/` stripped (what Tacker reports). */
  imagePath: string;
  /** The artifact resolved to a package path (relative to the template's folder). */
  packagePath: string;
  /** Name of the SwImage artifact on the node. */
  artifactName: string;
  /** `sw_image_data.operating_system`. */
  operatingSystem?: string;
  /** `sw_image_data.supported_virtualisation_environments`. */
  supportedVirtualisationEnvironments: string[];
}

/** One instantiation level with the per-VDU and per-VL values of the level policies. */
export interface InstantiationLevel {
  /** Level id. */
  id: string;
  /** `description`. */
  description?: string;
  /** aspect id → `scale_info.<aspect>.scale_level`. */
  scaleInfo: Record<string, number>;
  /** VDU name → `VduInstantiationLevels.levels.<id>.number_of_instances`. */
  vduInstances: Record<string, number>;
  /** VL name → `VirtualLinkInstantiationLevels.levels.<id>.bitrate_requirements`. */
  virtualLinkBitrates: Record<string, unknown>;
}

/** The InstantiationLevels policy of a flavour. */
export interface InstantiationLevels {
  /** Policy name. */
  policy: string;
  /** `default_level` (Tacker: the level used when the request gives none). */
  defaultLevel?: string;
  /** Levels in the order written. */
  levels: InstantiationLevel[];
}

/** A scaling aspect (`ScalingAspects.aspects.<id>`) with its deltas. */
export interface ScalingAspect {
  /** Aspect id. */
  id: string;
  /** `name`. */
  name?: string;
  /** `description`. */
  description?: string;
  /** `max_scale_level`. */
  maxScaleLevel: number;
  /** `step_deltas` (delta ids, one per step; Tacker uses the first for every step). */
  stepDeltas: string[];
  /** VDU name → delta id → number_of_instances (VduScalingAspectDeltas). */
  vduDeltas: Record<string, Record<string, number>>;
  /** VL name → delta id → bitrate requirements (VirtualLinkBitrateScalingAspectDeltas). */
  virtualLinkBitrateDeltas: Record<string, Record<string, unknown>>;
}

/** A `tosca.groups.nfv.PlacementGroup`. */
export interface PlacementGroup {
  /** Group name. */
  name: string;
  /** Member node names. */
  members: string[];
}

/** An affinity or anti-affinity rule. */
export interface PlacementRule {
  /** Policy name. */
  name: string;
  /** AffinityRule → 'affinity', AntiAffinityRule → 'anti-affinity'. */
  kind: 'affinity' | 'anti-affinity';
  /** `scope` (zone, nfvi_node, zone_group, nfvi_pop, network_link_and_node). */
  scope: string;
  /** Targets as written (VDUs, VLs or placement groups). */
  targets: string[];
  /** Targets with groups expanded to their members, de-duplicated, in order. */
  members: string[];
  /** Where the policy was written. */
  loc: Location;
}

export type LcmArtifactKind = 'package' | 'host-path';

/** A Vnflcm interface operation (hook). */
export interface LcmOperation {
  /** Operation name (`instantiate_start`, `scale_rollback_end`, …). */
  name: string;
  /** Node that declares it (the VNF node of the flavour or of the entry template). */
  node: string;
  /** `implementation` as written (artifact name, or a file path); absent for `[]` / no-op operations. */
  implementation?: string;
  /**
   * The implementation artifact, when `implementation` names an artifact of the node. `kind`:
   * `package` — `path` is a file of the package; `host-path` — `path` is an absolute path on the
   * VNFM host (Tacker's built-in management drivers), which the package does not carry.
   */
  artifact?: { name: string; type: string; path: string; kind: LcmArtifactKind };
  /** `dependencies` as written. */
  dependencies: string[];
  /** `inputs` as written. */
  inputs: Record<string, unknown>;
  /** Where the operation was written. */
  loc: Location;
}

/** Heat templates of a flavour (`BaseHOT/<flavourId>/`). */
export interface BaseHot {
  /** The top template (first YAML directly in the folder), when present. */
  main?: string;
  /** Files under `BaseHOT/<flavourId>/nested/`. */
  nested: string[];
}

/** Infrastructure files of the package, independent of the flavour. */
export interface PackageInfraArtifacts {
  /** Kubernetes manifests (YAML files under Files/kubernetes/ or declared manifests outside Definitions/ and BaseHOT/). */
  kubernetesManifests: string[];
  /** Helm charts (`.tgz`). */
  helmCharts: string[];
  /** Terraform files (`.tf`). */
  terraformFiles: string[];
}
