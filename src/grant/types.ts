/**
 * SOL003 v3.3.1 granting (§9.5): the GrantRequest a VNFM sends before changing resources and
 * the Grant an NFVO answers. Only what Bosun produces or reads is typed; the rest passes as is.
 */

export type ResourceType = 'COMPUTE' | 'VL' | 'STORAGE' | 'LINKPORT';

export interface ResourceHandle {
  vimConnectionId?: string;
  resourceProviderId?: string;
  resourceId: string;
  vimLevelResourceType?: string;
}

export interface ResourceDefinition {
  id: string;
  type: ResourceType;
  /** The VNFD node the resource is made from (VDU, VduCp, storage or VL name). */
  resourceTemplateId: string;
  /** v3.3.1: the VDU, VL, CP or storage descriptor id (the same node name, as Tacker does). */
  resourceTemplate?: unknown;
  vduId?: string;
  /** Existing resources (removeResources, updateResources). */
  resource?: ResourceHandle;
}

export interface ConstraintResourceRef {
  idType: 'RES_MGMT' | 'GRANT';
  resourceId: string;
  vimConnectionId?: string;
  resourceProviderId?: string;
}

export interface PlacementConstraint {
  affinityOrAntiAffinity: 'AFFINITY' | 'ANTI_AFFINITY';
  scope: 'NFVI_POP' | 'ZONE' | 'ZONE_GROUP' | 'NFVI_NODE';
  resource: ConstraintResourceRef[];
  fallbackBestEffort?: boolean;
}

export interface VimConstraint {
  sameResourceGroup?: boolean;
  resource: ConstraintResourceRef[];
}

export interface GrantRequest {
  vnfInstanceId: string;
  vnfLcmOpOccId: string;
  vnfdId: string;
  /** CHANGE_VNFPKG: the target package's VNFD. */
  dstVnfdId?: string;
  flavourId?: string;
  operation: string;
  isAutomaticInvocation: boolean;
  instantiationLevelId?: string;
  addResources?: ResourceDefinition[];
  tempResources?: ResourceDefinition[];
  removeResources?: ResourceDefinition[];
  updateResources?: ResourceDefinition[];
  placementConstraints?: PlacementConstraint[];
  vimConstraints?: VimConstraint[];
  additionalParams?: Record<string, unknown>;
  _links: { vnfLcmOpOcc: { href: string }; vnfInstance: { href: string } };
}

export interface ZoneInfo {
  id: string;
  zoneId: string;
  vimConnectionId?: string;
}

export interface GrantInfo {
  resourceDefinitionId: string;
  reservationId?: string;
  vimConnectionId?: string;
  resourceProviderId?: string;
  zoneId?: string;
  resourceGroupId?: string;
}

export interface VimSoftwareImage {
  vnfdSoftwareImageId: string;
  vimSoftwareImageId: string;
  vimConnectionId?: string;
}

export interface VimComputeResourceFlavour {
  vnfdVirtualComputeDescId: string;
  vimFlavourId: string;
  vimConnectionId?: string;
}

/**
 * A VIM connection as granted (v3.3.1: a map in Grant.vimConnectionInfo); no credentials in
 * clear: those an external NFVO sends are sealed as a request's are (vims/request-info.ts).
 */
export interface GrantedVimConnection {
  vimId?: string;
  vimType: string;
  interfaceInfo?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  sealedAccessInfo?: string;
  sealedInterfaceSecrets?: string;
}

export interface Grant {
  id: string;
  vnfInstanceId: string;
  vnfLcmOpOccId: string;
  vimConnectionInfo?: Record<string, GrantedVimConnection>;
  zones?: ZoneInfo[];
  zoneGroups?: { zoneId: string[] }[];
  addResources?: GrantInfo[];
  tempResources?: GrantInfo[];
  removeResources?: GrantInfo[];
  updateResources?: GrantInfo[];
  vimAssets?: {
    computeResourceFlavours?: VimComputeResourceFlavour[];
    softwareImages?: VimSoftwareImage[];
  };
  additionalParams?: Record<string, unknown>;
  _links: { self: { href: string }; vnfLcmOpOcc: { href: string }; vnfInstance: { href: string } };
}
