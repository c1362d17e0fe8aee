/**
 * The VNFD model Bosun read from an onboarded package (GET /bosun/v1/vnf_packages/{id}/vnfd_model),
 * in the parts the console shows and builds its LCM forms from. Every node says where it was
 * written (`loc`).
 */
export const vnfdModelPath = (pkgId: string) =>
  `/bosun/v1/vnf_packages/${encodeURIComponent(pkgId)}/vnfd_model`;

export interface Loc {
  file: string;
  line?: number;
  column?: number;
}

export interface Vdu {
  id: string;
  name: string;
  description?: string;
  vduProfile: { minNumberOfInstances: number; maxNumberOfInstances: number };
  virtualCompute?: { numVirtualCpu?: number; virtualMemSize?: number; localStorageSizes: number[] };
  virtualStorages: string[];
  swImage?: string;
  swImageName?: string;
  loc: Loc;
}

export interface VduCp {
  id: string;
  vdu?: string;
  virtualLink?: string;
  order?: number;
  loc: Loc;
}

export interface VirtualLink {
  id: string;
  description?: string;
  layerProtocols: string[];
  loc: Loc;
}

export interface ExtCp {
  id: string;
  internalVirtualLink?: string;
  externalVirtualLink?: string;
  layerProtocols: string[];
  loc: Loc;
}

export interface Storage {
  id: string;
  kind: 'block' | 'object' | 'file';
  sizeOfStorage?: number;
  swImage?: string;
  loc: Loc;
}

export interface SoftwareImage {
  id: string;
  flavourId: string;
  name: string;
  version: string;
  containerFormat: string;
  diskFormat: string;
  minDisk: number;
  minRam: number;
  size: number;
  imagePath: string;
}

export interface InstantiationLevel {
  id: string;
  description?: string;
  scaleInfo: Record<string, number>;
  vduInstances: Record<string, number>;
}

export interface ScalingAspect {
  id: string;
  name?: string;
  description?: string;
  maxScaleLevel: number;
  stepDeltas: string[];
  vduDeltas: Record<string, Record<string, number>>;
}

export interface PlacementRule {
  name: string;
  kind: 'affinity' | 'anti-affinity';
  scope: string;
  targets: string[];
  members: string[];
  loc: Loc;
}

export interface LcmOperation {
  name: string;
  node: string;
  implementation?: string;
  artifact?: { name: string; type: string; path: string; kind: 'package' | 'host-path' };
  loc: Loc;
}

export interface Flavour {
  flavourId: string;
  description?: string;
  file: string;
  vdus: Vdu[];
  vduCps: VduCp[];
  virtualLinks: VirtualLink[];
  extCps: ExtCp[];
  storages: Storage[];
  softwareImages: SoftwareImage[];
  instantiationLevels?: { policy: string; defaultLevel?: string; levels: InstantiationLevel[] };
  scalingAspects: ScalingAspect[];
  initialDeltas: Record<string, number>;
  placementRules: PlacementRule[];
  lcmOperations: LcmOperation[];
}

export interface VnfdModel {
  entryDefinitions: string;
  vnf: {
    descriptorId: string;
    descriptorVersion: string;
    provider: string;
    productName: string;
    softwareVersion: string;
    productInfoDescription?: string;
    flavourId?: string;
    loc: Loc;
  };
  flavours: Flavour[];
  softwareImages: SoftwareImage[];
  additionalArtifacts: { artifactPath: string; checksum?: { algorithm: string; hash: string } }[];
}

export const where = (loc: Loc | undefined) => (loc ? [loc.file, loc.line].filter(Boolean).join(':') : '');
