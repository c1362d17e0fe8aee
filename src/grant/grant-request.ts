/**
 * Builds the SOL003 GrantRequest of an operation from what it changes: VNFCs added (with a
 * LINKPORT per connection point and a STORAGE per virtual storage), VNFCs removed or updated
 * (with their VNFM-created ports and their storages, each with its ResourceHandle), internal
 * VLs added or removed, and the placement and VIM constraints of the flavour's rules.
 *
 * Ids: a new COMPUTE has the VNFC's id (so the grant's zone for it is found by that id); its
 * ports and storages are `<node>-<vnfcId>`; a new VL has its plan id; the port of a VnfExtCp
 * node (the VNF's own, on an external VL) is `<node>-<vnfInstanceId>`.
 */
import type {
  InstantiatedVnfInfo,
  VnfcResourceInfo,
  VnfVirtualLinkResourceInfo,
} from '../sol/instance-model.ts';
import type { NewVnfc } from '../vims/contract.ts';
import type { Flavour } from '../vnfd/model/vnfd.ts';
import { placementConstraints, vimConstraints } from './placement.ts';
import type { GrantRequest, ResourceDefinition } from './types.ts';

export interface ResourceDelta {
  addVnfcs?: readonly NewVnfc[];
  /** New internal VLs: plan id and VL node name. */
  addVirtualLinks?: readonly { id: string; vnfVirtualLinkDescId: string }[];
  /** VnfExtCp nodes that get a port of the VNF's own on an external VL. */
  addExtCps?: readonly string[];
  removeVnfcs?: readonly string[];
  removeVirtualLinks?: readonly string[];
  /** extCpInfo ids of the VNF's own external CPs whose ports go. */
  removeExtCps?: readonly string[];
  /** VNFCs changed in place (re-created, re-connected). */
  updateVnfcs?: readonly string[];
  /** Remove and add the storages of the updated / removed VNFCs too. */
  withStorage?: boolean;
}

export interface GrantRequestInput {
  vnfInstanceId: string;
  vnfLcmOpOccId: string;
  vnfdId: string;
  dstVnfdId?: string;
  flavour: Flavour;
  operation: string;
  isAutomaticInvocation: boolean;
  instantiationLevelId?: string;
  current?: InstantiatedVnfInfo;
  delta: ResourceDelta;
  additionalParams?: Record<string, unknown>;
  fallbackBestEffort: boolean;
  /** Path-absolute hrefs of the op occ and instance (the API's major). */
  links: { vnfLcmOpOcc: string; vnfInstance: string };
}

function added(vnfc: NewVnfc): ResourceDefinition[] {
  return [
    { id: vnfc.id, type: 'COMPUTE', resourceTemplateId: vnfc.vduId, vduId: vnfc.vduId },
    ...vnfc.cps.map(
      (cp): ResourceDefinition => ({
        id: `${cp}-${vnfc.id}`,
        type: 'LINKPORT',
        resourceTemplateId: cp,
        vduId: vnfc.vduId,
      }),
    ),
    ...vnfc.storages.map(
      (st): ResourceDefinition => ({
        id: `${st}-${vnfc.id}`,
        type: 'STORAGE',
        resourceTemplateId: st,
        vduId: vnfc.vduId,
      }),
    ),
  ];
}

/** The existing resources of a VNFC: its compute, the ports the VNFM created for it, its storages. */
function existing(
  vnfc: VnfcResourceInfo,
  info: InstantiatedVnfInfo,
  options: { ports: boolean; storage: boolean },
): ResourceDefinition[] {
  const out: ResourceDefinition[] = [
    {
      id: vnfc.id,
      type: 'COMPUTE',
      resourceTemplateId: vnfc.vduId,
      vduId: vnfc.vduId,
      resource: vnfc.computeResource,
    },
  ];
  if (options.ports) {
    const ports = new Map(
      (info.vnfVirtualLinkResourceInfo ?? []).flatMap((vl) =>
        (vl.vnfLinkPorts ?? []).map((p) => [p.id, p] as const),
      ),
    );
    for (const cp of vnfc.vnfcCpInfo ?? []) {
      const port = cp.vnfLinkPortId ? ports.get(cp.vnfLinkPortId) : undefined;
      if (!port) continue;
      out.push({
        id: port.id,
        type: 'LINKPORT',
        resourceTemplateId: cp.cpdId,
        vduId: vnfc.vduId,
        resource: port.resourceHandle,
      });
    }
  }
  if (options.storage) {
    const storages = new Map((info.virtualStorageResourceInfo ?? []).map((s) => [s.id, s]));
    for (const id of vnfc.storageResourceIds ?? []) {
      const st = storages.get(id);
      if (!st) continue;
      out.push({
        id: st.id,
        type: 'STORAGE',
        resourceTemplateId: st.virtualStorageDescId,
        vduId: vnfc.vduId,
        resource: st.storageResource,
      });
    }
  }
  return out;
}

/** The VNF's own external CP ports (not a VNFC's) of `ids`, with their handles. */
function extCpPorts(info: InstantiatedVnfInfo, ids: readonly string[]): ResourceDefinition[] {
  const handles = new Map(
    (info.extVirtualLinkInfo ?? []).flatMap((e) =>
      (e.extLinkPorts ?? []).map((p) => [p.cpInstanceId ?? p.id, p.resourceHandle] as const),
    ),
  );
  return info.extCpInfo
    .filter((cp) => ids.includes(cp.id) && !cp.associatedVnfcCpId)
    .map((cp) => {
      const resource = handles.get(cp.id);
      return { id: cp.id, type: 'LINKPORT', resourceTemplateId: cp.cpdId, ...(resource ? { resource } : {}) };
    });
}

const vlDefinition = (vl: VnfVirtualLinkResourceInfo): ResourceDefinition => ({
  id: vl.id,
  type: 'VL',
  resourceTemplateId: vl.vnfVirtualLinkDescId,
  resource: vl.networkResource,
});

export function buildGrantRequest(input: GrantRequestInput): GrantRequest {
  const { delta, current } = input;
  const info: InstantiatedVnfInfo = current ?? {
    flavourId: input.flavour.flavourId,
    vnfState: 'STOPPED',
    extCpInfo: [],
  };
  const vnfcs = new Map((info.vnfcResourceInfo ?? []).map((v) => [v.id, v]));
  const vls = new Map((info.vnfVirtualLinkResourceInfo ?? []).map((v) => [v.id, v]));
  const pick = (ids: readonly string[] | undefined) =>
    (ids ?? []).map((id) => vnfcs.get(id)).filter((v): v is VnfcResourceInfo => v !== undefined);

  const addResources: ResourceDefinition[] = [
    ...(delta.addVnfcs ?? []).flatMap(added),
    ...(delta.addVirtualLinks ?? []).map(
      (vl): ResourceDefinition => ({ id: vl.id, type: 'VL', resourceTemplateId: vl.vnfVirtualLinkDescId }),
    ),
    ...(delta.addExtCps ?? []).map(
      (cp): ResourceDefinition => ({
        id: `${cp}-${input.vnfInstanceId}`,
        type: 'LINKPORT',
        resourceTemplateId: cp,
      }),
    ),
  ];
  const removed = pick(delta.removeVnfcs);
  const removeResources: ResourceDefinition[] = [
    ...removed.flatMap((v) => existing(v, info, { ports: true, storage: true })),
    ...(delta.removeVirtualLinks ?? [])
      .map((id) => vls.get(id))
      .filter((v): v is VnfVirtualLinkResourceInfo => v !== undefined)
      .map(vlDefinition),
    ...extCpPorts(info, delta.removeExtCps ?? []),
  ];
  const updateResources = pick(delta.updateVnfcs).flatMap((v) =>
    existing(v, info, { ports: false, storage: delta.withStorage ?? false }),
  );
  const gone = new Set([...(delta.removeVnfcs ?? []), ...(delta.updateVnfcs ?? [])]);
  const placement = {
    rules: input.flavour.placementRules,
    add: addResources,
    existing: (info.vnfcResourceInfo ?? []).filter((v) => !gone.has(v.id)),
    fallbackBestEffort: input.fallbackBestEffort,
  };
  const request: GrantRequest = {
    vnfInstanceId: input.vnfInstanceId,
    vnfLcmOpOccId: input.vnfLcmOpOccId,
    vnfdId: input.vnfdId,
    ...(input.dstVnfdId ? { dstVnfdId: input.dstVnfdId } : {}),
    flavourId: input.flavour.flavourId,
    operation: input.operation,
    isAutomaticInvocation: input.isAutomaticInvocation,
    ...(input.instantiationLevelId ? { instantiationLevelId: input.instantiationLevelId } : {}),
    _links: {
      vnfLcmOpOcc: { href: input.links.vnfLcmOpOcc },
      vnfInstance: { href: input.links.vnfInstance },
    },
  };
  if (addResources.length) request.addResources = addResources;
  if (removeResources.length) request.removeResources = removeResources;
  if (updateResources.length) request.updateResources = updateResources;
  const constraints = placementConstraints(placement);
  if (constraints.length) request.placementConstraints = constraints;
  const vimRules = vimConstraints(placement);
  if (vimRules.length) request.vimConstraints = vimRules;
  if (input.additionalParams && Object.keys(input.additionalParams).length) {
    request.additionalParams = input.additionalParams;
  }
  return request;
}
