/**
 * SOL001 type names the model recognises. Every test goes through `TypeRegistry.isA`, so
 * vendor types derived from these are recognised too (Tacker's v2 reader does not, §12.17).
 */
export const SOL001 = {
  vnf: 'tosca.nodes.nfv.VNF',
  vdu: 'tosca.nodes.nfv.Vdu.Compute',
  blockStorage: 'tosca.nodes.nfv.Vdu.VirtualBlockStorage',
  objectStorage: 'tosca.nodes.nfv.Vdu.VirtualObjectStorage',
  fileStorage: 'tosca.nodes.nfv.Vdu.VirtualFileStorage',
  vduCp: 'tosca.nodes.nfv.VduCp',
  virtualLink: 'tosca.nodes.nfv.VnfVirtualLink',
  extCp: 'tosca.nodes.nfv.VnfExtCp',
  swImage: 'tosca.artifacts.nfv.SwImage',
  placementGroup: 'tosca.groups.nfv.PlacementGroup',
  instantiationLevels: 'tosca.policies.nfv.InstantiationLevels',
  vduInstantiationLevels: 'tosca.policies.nfv.VduInstantiationLevels',
  vlInstantiationLevels: 'tosca.policies.nfv.VirtualLinkInstantiationLevels',
  scalingAspects: 'tosca.policies.nfv.ScalingAspects',
  vduScalingAspectDeltas: 'tosca.policies.nfv.VduScalingAspectDeltas',
  vlBitrateScalingAspectDeltas: 'tosca.policies.nfv.VirtualLinkBitrateScalingAspectDeltas',
  vduInitialDelta: 'tosca.policies.nfv.VduInitialDelta',
  affinityRule: 'tosca.policies.nfv.AffinityRule',
  antiAffinityRule: 'tosca.policies.nfv.AntiAffinityRule',
  vnflcm: 'tosca.interfaces.nfv.Vnflcm',
} as const;
