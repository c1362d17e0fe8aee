/**
 * Request bodies of /vnflcm/v1 at API version 1.3.0 (SOL003 v2.6.1 §5.5.2, with the SOL002 v2.6.1
 * additions: vnfcInstanceId and healScript on heal, vnfcInstanceId on operate), derived from the
 * 2.0.0 ones: v2.6.1 differs where vimConnectionInfo is an array of entries with their id,
 * VnfExtCpData.cpConfig an array of VnfExtCpConfig, and modify deletes VIM connections with
 * vimConnectionInfoDeleteIds. The routes turn them into the engine's shapes (../shapes.ts).
 *
 * Tacker v1 extras accepted: CreateVnfRequest.metadata and VnfInfoModificationRequest.vnfPkgId
 * (the package whose VNFD the instance moves to).
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { closed, id, keyValue, open } from '../../request-schemas.ts';
import * as V2 from '../../v2/requests/2.0.0.ts';

export const VimConnectionInfo = open(
  {
    id: id('Id of the VIM connection in this VNF instance.'),
    ...V2.VimConnectionInfo.properties,
  },
  'VimConnectionInfo (SOL003 v2.6.1: an array entry carrying its id)',
);

const VimConnectionInfoList = Type.Array(VimConnectionInfo, {
  description: 'VIM connections (SOL003 v2.6.1: an array, ids unique).',
});

const VnfExtCpConfig = open(
  {
    cpInstanceId: Type.Optional(id('An existing external CP instance to re-configure.')),
    linkPortId: Type.Optional(id('A port of extLinkPorts to connect the CP to.')),
    cpProtocolData: Type.Optional(Type.Array(keyValue('CpProtocolData'))),
  },
  'VnfExtCpConfig',
);

const VnfExtCpData = open(
  {
    ...V2.VnfExtCpData.properties,
    cpConfig: Type.Optional(Type.Array(VnfExtCpConfig, { description: 'CP configurations (an array).' })),
  },
  'VnfExtCpData',
);

export const ExtVirtualLinkData = open(
  { ...V2.ExtVirtualLinkData.properties, extCps: Type.Array(VnfExtCpData, { minItems: 1 }) },
  'ExtVirtualLinkData',
);

/** v2.6.1 has neither vnfLinkPort nor extManagedMultisiteVirtualLinkId. */
const {
  vnfLinkPort: _port,
  extManagedMultisiteVirtualLinkId: _multisite,
  ...managedLink
} = V2.ExtManagedVirtualLinkData.properties;
const ExtManagedVirtualLinkData = open(managedLink, 'ExtManagedVirtualLinkData');

const connectivity = {
  extVirtualLinks: Type.Optional(Type.Array(ExtVirtualLinkData)),
  extManagedVirtualLinks: Type.Optional(Type.Array(ExtManagedVirtualLinkData)),
  vimConnectionInfo: Type.Optional(VimConnectionInfoList),
};

/** A 2.0.0 request with some attributes replaced (in place: attribute order is kept). */
const like = (
  schema: { properties: Record<string, TSchema> },
  description: string,
  replaced: Record<string, TSchema>,
) => closed({ ...schema.properties, ...replaced }, description);

export const CreateVnfRequest = like(V2.CreateVnfRequest, 'CreateVnfRequest', {
  metadata: Type.Optional(keyValue('Metadata of the instance (Tacker v1 accepts it too).')),
});

export const InstantiateVnfRequest = like(V2.InstantiateVnfRequest, 'InstantiateVnfRequest', connectivity);

const vnfcInstanceIds = (description: string) => Type.Optional(Type.Array(id(), { description }));

export const HealVnfRequest = like(
  V2.HealVnfRequest,
  'HealVnfRequest (SOL003 v2.6.1 with the SOL002 attributes)',
  {
    vnfcInstanceId: vnfcInstanceIds(
      'SOL002: ids of instantiatedVnfInfo.vnfcResourceInfo to heal; absent: the whole VNF (SOL003).',
    ),
    healScript: Type.Optional(Type.String({ description: 'SOL002.' })),
  },
);

export const ChangeVnfFlavourRequest = like(
  V2.ChangeVnfFlavourRequest,
  'ChangeVnfFlavourRequest',
  connectivity,
);

export const OperateVnfRequest = like(V2.OperateVnfRequest, 'OperateVnfRequest', {
  vnfcInstanceId: vnfcInstanceIds('SOL002: ids of instantiatedVnfInfo.vnfcResourceInfo.'),
});

export const ChangeExtVnfConnectivityRequest = like(
  V2.ChangeExtVnfConnectivityRequest,
  'ChangeExtVnfConnectivityRequest',
  {
    extVirtualLinks: Type.Array(ExtVirtualLinkData, { minItems: 1 }),
    vimConnectionInfo: connectivity.vimConnectionInfo,
  },
);

const { vnfInstanceName, vnfInstanceDescription, vnfdId, vnfConfigurableProperties, metadata, extensions } =
  V2.VnfInfoModificationRequest.properties;

export const VnfInfoModificationRequest = closed(
  {
    vnfInstanceName,
    vnfInstanceDescription,
    vnfdId,
    vnfPkgId: Type.Optional(id('Tacker v1: the package whose VNFD the instance moves to.')),
    vnfConfigurableProperties,
    metadata,
    extensions,
    vimConnectionInfo: Type.Optional(
      Type.Array(VimConnectionInfo, {
        description: 'VIM connections to add, or to modify (merged into the entry with the same id).',
      }),
    ),
    vimConnectionInfoDeleteIds: Type.Optional(
      Type.Array(id(), { description: 'Ids of VIM connections to delete.' }),
    ),
  },
  'VnfInfoModificationRequest',
  { minProperties: 1 },
);

/** v2.6.1 has no ChangeCurrentVnfPkgRequest; the other requests not redefined above are 2.0.0's. */
const { ChangeCurrentVnfPkgRequest: _, ...REQUESTS_SHARED } = V2.REQUESTS_2_0_0;

export const REQUESTS_1_3_0 = {
  ...REQUESTS_SHARED,
  CreateVnfRequest,
  InstantiateVnfRequest,
  HealVnfRequest,
  ChangeVnfFlavourRequest,
  OperateVnfRequest,
  ChangeExtVnfConnectivityRequest,
  VnfInfoModificationRequest,
} as const;
