/**
 * The SOL003 instance resource model: a VNF instance's instantiatedVnfInfo (its VNFCs, virtual
 * links, storages, external CPs, scale levels) and an op occ's resourceChanges. The LCM engine
 * keeps and shows it; infra drivers (src/vims/contract.ts) report it.
 *
 * Types are SOL003 v3.3.1 shaped (a superset of v2.6.1); the API views trim them per version.
 */
// ---------------------------------------------------------------- resource information

/** SOL003 ResourceHandle. */
export interface ResourceHandle {
  vimConnectionId?: string;
  resourceProviderId?: string;
  resourceId: string;
  /** e.g. `OS::Nova::Server`, `OS::Cinder::Volume`, `OS::Neutron::Net`, `OS::Neutron::Port`. */
  vimLevelResourceType?: string;
}

export interface CpProtocolInfo {
  layerProtocol: 'IP_OVER_ETHERNET';
  ipOverEthernet?: {
    macAddress?: string;
    ipAddresses?: { type: 'IPV4' | 'IPV6'; addresses?: string[]; isDynamic?: boolean; subnetId?: string }[];
  };
}

export interface VnfcCpInfo {
  id: string;
  /** VduCp node name. */
  cpdId: string;
  /** Set when the CP is exposed as an external CP. */
  vnfExtCpId?: string;
  cpProtocolInfo?: CpProtocolInfo[];
  /** Port on an internal VL (vnfVirtualLinkResourceInfo[].vnfLinkPorts[].id). */
  vnfLinkPortId?: string;
  metadata?: Record<string, unknown>;
}

export interface VnfcResourceInfo {
  id: string;
  vduId: string;
  /** Availability zone the VNFC runs in (v3 field; also in metadata.zone for v1). */
  zoneId?: string;
  computeResource: ResourceHandle;
  storageResourceIds?: string[];
  reservationId?: string;
  vnfcCpInfo?: VnfcCpInfo[];
  /** Includes `zone`, `host`, `flavor`, `image` and the creating `opOccId`. */
  metadata?: Record<string, unknown>;
}

export interface VnfLinkPortInfo {
  id: string;
  resourceHandle: ResourceHandle;
  /** VnfcCpInfo id or VnfExtCpInfo id attached to this port. */
  cpInstanceId?: string;
  cpInstanceType?: 'VNFC_CP' | 'EXT_CP';
}

export interface VnfVirtualLinkResourceInfo {
  id: string;
  /** VnfVirtualLink node name. */
  vnfVirtualLinkDescId: string;
  networkResource: ResourceHandle;
  reservationId?: string;
  vnfLinkPorts?: VnfLinkPortInfo[];
  metadata?: Record<string, unknown>;
}

export interface VirtualStorageResourceInfo {
  id: string;
  /** Storage node name. */
  virtualStorageDescId: string;
  storageResource: ResourceHandle;
  reservationId?: string;
  metadata?: Record<string, unknown>;
}

export interface VnfExtCpInfo {
  id: string;
  /** VnfExtCp (or VduCp on an external VL) node name. */
  cpdId: string;
  cpConfigId?: string;
  cpProtocolInfo?: CpProtocolInfo[];
  extLinkPortId?: string;
  associatedVnfcCpId?: string;
  associatedVnfVirtualLinkId?: string;
  metadata?: Record<string, unknown>;
}

export interface ExtLinkPortInfo {
  id: string;
  resourceHandle: ResourceHandle;
  cpInstanceId?: string;
}

export interface ExtVirtualLinkInfo {
  id: string;
  resourceHandle: ResourceHandle;
  extLinkPorts?: ExtLinkPortInfo[];
  currentVnfExtCpData?: Record<string, unknown>[];
}

export interface ExtManagedVirtualLinkInfo {
  id: string;
  vnfVirtualLinkDescId: string;
  networkResource: ResourceHandle;
  vnfLinkPorts?: VnfLinkPortInfo[];
}

export interface VnfcInfo {
  /** `<vduId>-<vnfcResourceInfoId>`-like stable id used by SOL002 heal. */
  id: string;
  vduId: string;
  vnfcResourceInfoId: string;
  vnfcState: 'STARTED' | 'STOPPED';
  vnfcConfigurableProperties?: Record<string, unknown>;
}

export interface ScaleInfo {
  aspectId: string;
  vnfdId?: string;
  scaleLevel: number;
}

/** SOL003 VnfInstance.instantiatedVnfInfo. */
export interface InstantiatedVnfInfo {
  flavourId: string;
  vnfState: 'STARTED' | 'STOPPED';
  scaleStatus?: ScaleInfo[];
  maxScaleLevels?: ScaleInfo[];
  extCpInfo: VnfExtCpInfo[];
  extVirtualLinkInfo?: ExtVirtualLinkInfo[];
  extManagedVirtualLinkInfo?: ExtManagedVirtualLinkInfo[];
  vnfcResourceInfo?: VnfcResourceInfo[];
  vnfVirtualLinkResourceInfo?: VnfVirtualLinkResourceInfo[];
  virtualStorageResourceInfo?: VirtualStorageResourceInfo[];
  vnfcInfo?: VnfcInfo[];
  localizationLanguage?: string;
  /** Driver bookkeeping shown to users, e.g. `stackId`. */
  metadata?: Record<string, unknown>;
}

// ---------------------------------------------------------------- resource changes

export type ChangeType = 'ADDED' | 'REMOVED' | 'MODIFIED' | 'TEMPORARY';

export interface AffectedVnfc {
  id: string;
  vduId: string;
  changeType: ChangeType;
  computeResource: ResourceHandle;
  zoneId?: string;
  metadata?: Record<string, unknown>;
  affectedVnfcCpIds?: string[];
  addedStorageResourceIds?: string[];
  removedStorageResourceIds?: string[];
}

export interface AffectedVirtualLink {
  id: string;
  vnfVirtualLinkDescId: string;
  changeType: ChangeType | 'LINK_PORT_ADDED' | 'LINK_PORT_REMOVED';
  networkResource: ResourceHandle;
  vnfLinkPortIds?: string[];
  metadata?: Record<string, unknown>;
}

export interface AffectedVirtualStorage {
  id: string;
  virtualStorageDescId: string;
  changeType: ChangeType;
  storageResource: ResourceHandle;
  metadata?: Record<string, unknown>;
}

export interface AffectedExtLinkPort {
  id: string;
  changeType: 'ADDED' | 'MODIFIED' | 'REMOVED';
  extCpInstanceId: string;
  resourceHandle: ResourceHandle;
}

/** SOL003 LcmOpOcc.resourceChanges. */
export interface ResourceChanges {
  affectedVnfcs: AffectedVnfc[];
  affectedVirtualLinks: AffectedVirtualLink[];
  affectedVirtualStorages: AffectedVirtualStorage[];
  affectedExtLinkPorts: AffectedExtLinkPort[];
}
