/**
 * The instance's instantiatedVnfInfo as the Kubernetes driver reports it: its VNFCs (pods), the
 * scale levels, and the driver's state in metadata (state.ts). A CNF has no VIM-level links,
 * ports or volumes of its own.
 */
import type { InstantiatedVnfInfo, ScaleInfo, VnfcResourceInfo } from '../../../sol/instance-model.ts';
import type { KubeState } from './state.ts';
import { vnfcInfoOf } from './vnfcs.ts';

export function infoOf(
  flavourId: string,
  vnfcs: VnfcResourceInfo[],
  state: KubeState,
  scale: { scaleStatus?: ScaleInfo[]; maxScaleLevels?: ScaleInfo[] },
): InstantiatedVnfInfo {
  return {
    flavourId,
    vnfState: 'STARTED',
    ...(scale.scaleStatus ? { scaleStatus: scale.scaleStatus } : {}),
    ...(scale.maxScaleLevels ? { maxScaleLevels: scale.maxScaleLevels } : {}),
    extCpInfo: [],
    vnfcResourceInfo: vnfcs,
    vnfVirtualLinkResourceInfo: [],
    virtualStorageResourceInfo: [],
    vnfcInfo: vnfcInfoOf(vnfcs),
    metadata: state as unknown as Record<string, unknown>,
  };
}
