/**
 * Request bodies of /vnflcm/v1 at API version 1.3.0 (SOL003 v2.6.1 §5.5.2, with the SOL002 v2.6.1
 * additions: vnfcInstanceId and healScript on heal, vnfcInstanceId on operate). The v2.6.1 shapes:
 * vimConnectionInfo is an array of entries with their id, VnfExtCpData.cpConfig an array of
 * VnfExtCpConfig; modify deletes VIM connections with vimConnectionInfoDeleteIds. The routes turn
 * them into the engine's shapes (src/lcm/v1-shapes.ts).
 *
 * As on /vnflcm/v2, top-level attributes are closed (a misspelt attribute is a 400 naming it) and
 * the nested SOL data types stay open. Tacker v1 extras accepted: CreateVnfRequest.metadata and
 * VnfInfoModificationRequest.vnfPkgId (the package whose VNFD the instance moves to).
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { stringEnum } from '../../../../../notify/subscriptions/schema-helpers.ts';

const id = (description?: string) =>
  Type.String({ minLength: 1, maxLength: 255, ...(description ? { description } : {}) });
const keyValue = (description: string) => Type.Object({}, { additionalProperties: true, description });
const closed = <T extends Record<string, TSchema>>(
  properties: T,
  description: string,
  extra: Record<string, unknown> = {},
) => Type.Object(properties, { additionalProperties: false, description, ...extra });
const open = <T extends Record<string, TSchema>>(properties: T, description: string) =>
  Type.Object(properties, { additionalProperties: true, description });

export const VimConnectionInfo = open(
  {
    id: id('Id of the VIM connection in this VNF instance.'),
    vimId: Type.Optional(id('Id of a registered VIM (bosun vim list).')),
    vimType: Type.String({ minLength: 1, description: 'e.g. BOSUN.SIM.V1, ETSINFV.OPENSTACK_KEYSTONE.V_3' }),
    interfaceInfo: Type.Optional(keyValue('Endpoint of the VIM.')),
    accessInfo: Type.Optional(keyValue('Credentials: stored sealed, never returned.')),
    extra: Type.Optional(keyValue('VIM-specific data.')),
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
    cpdId: id('The external CP descriptor (VnfExtCp or VduCp node).'),
    cpConfig: Type.Optional(Type.Array(VnfExtCpConfig, { description: 'CP configurations (an array).' })),
  },
  'VnfExtCpData',
);

export const ExtVirtualLinkData = open(
  {
    id: id('Id of the external VL in the request.'),
    vimConnectionId: Type.Optional(id()),
    resourceProviderId: Type.Optional(id()),
    resourceId: id('The VIM network.'),
    extCps: Type.Array(VnfExtCpData, { minItems: 1 }),
    extLinkPorts: Type.Optional(Type.Array(keyValue('ExtLinkPortData'))),
  },
  'ExtVirtualLinkData',
);

const ExtManagedVirtualLinkData = open(
  {
    id: id(),
    vnfVirtualLinkDescId: id('The VnfVirtualLink node the NFVO provides.'),
    vimConnectionId: Type.Optional(id()),
    resourceProviderId: Type.Optional(id()),
    resourceId: id('The VIM network.'),
  },
  'ExtManagedVirtualLinkData',
);

const connectivity = {
  extVirtualLinks: Type.Optional(Type.Array(ExtVirtualLinkData)),
  extManagedVirtualLinks: Type.Optional(Type.Array(ExtManagedVirtualLinkData)),
  vimConnectionInfo: Type.Optional(VimConnectionInfoList),
};

const additionalParams = Type.Optional(keyValue('Parameters for the VNF-specific steps (hooks, drivers).'));
const extensions = Type.Optional(keyValue('VNF instance extensions to set (merge patch).'));
const vnfConfigurableProperties = Type.Optional(
  keyValue('VNF configurable properties to set (merge patch).'),
);

export const CreateVnfRequest = closed(
  {
    vnfdId: id('The VNFD of an ONBOARDED and ENABLED package.'),
    vnfInstanceName: Type.Optional(Type.String({ maxLength: 255 })),
    vnfInstanceDescription: Type.Optional(Type.String({ maxLength: 1024 })),
    metadata: Type.Optional(keyValue('Metadata of the instance (Tacker v1 accepts it too).')),
  },
  'CreateVnfRequest',
);

export const InstantiateVnfRequest = closed(
  {
    flavourId: id('A deployment flavour of the VNFD.'),
    instantiationLevelId: Type.Optional(id("Default: the flavour's default level.")),
    ...connectivity,
    localizationLanguage: Type.Optional(Type.String()),
    additionalParams,
    extensions,
    vnfConfigurableProperties,
  },
  'InstantiateVnfRequest',
);

export const TerminateVnfRequest = closed(
  {
    terminationType: stringEnum(['FORCEFUL', 'GRACEFUL'] as const),
    gracefulTerminationTimeout: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Seconds (GRACEFUL); default lcm.defaultGracefulTerminationTimeout.',
      }),
    ),
    additionalParams,
  },
  'TerminateVnfRequest',
);

export const ScaleVnfRequest = closed(
  {
    type: stringEnum(['SCALE_OUT', 'SCALE_IN'] as const),
    aspectId: id('A scaling aspect of the flavour.'),
    numberOfSteps: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    additionalParams,
  },
  'ScaleVnfRequest',
);

export const ScaleVnfToLevelRequest = closed(
  {
    instantiationLevelId: Type.Optional(id()),
    scaleInfo: Type.Optional(
      Type.Array(closed({ aspectId: id(), scaleLevel: Type.Integer({ minimum: 0 }) }, 'ScaleInfo'), {
        minItems: 1,
      }),
    ),
    additionalParams,
  },
  'ScaleVnfToLevelRequest: exactly one of instantiationLevelId and scaleInfo.',
);

export const HealVnfRequest = closed(
  {
    vnfcInstanceId: Type.Optional(
      Type.Array(id(), {
        description:
          'SOL002: ids of instantiatedVnfInfo.vnfcResourceInfo to heal; absent: the whole VNF (SOL003).',
      }),
    ),
    cause: Type.Optional(Type.String()),
    additionalParams,
    healScript: Type.Optional(Type.String({ description: 'SOL002.' })),
  },
  'HealVnfRequest (SOL003 v2.6.1 with the SOL002 attributes)',
);

export const ChangeVnfFlavourRequest = closed(
  {
    newFlavourId: id(),
    instantiationLevelId: Type.Optional(id()),
    ...connectivity,
    additionalParams,
    extensions,
    vnfConfigurableProperties,
  },
  'ChangeVnfFlavourRequest',
);

export const OperateVnfRequest = closed(
  {
    vnfcInstanceId: Type.Optional(
      Type.Array(id(), { description: 'SOL002: ids of instantiatedVnfInfo.vnfcResourceInfo.' }),
    ),
    changeStateTo: stringEnum(['STARTED', 'STOPPED'] as const),
    stopType: Type.Optional(stringEnum(['FORCEFUL', 'GRACEFUL'] as const)),
    gracefulStopTimeout: Type.Optional(Type.Integer({ minimum: 0 })),
    additionalParams,
  },
  'OperateVnfRequest',
);

export const ChangeExtVnfConnectivityRequest = closed(
  {
    extVirtualLinks: Type.Array(ExtVirtualLinkData, { minItems: 1 }),
    vimConnectionInfo: Type.Optional(VimConnectionInfoList),
    additionalParams,
  },
  'ChangeExtVnfConnectivityRequest',
);

export const VnfInfoModificationRequest = closed(
  {
    vnfInstanceName: Type.Optional(Type.String({ maxLength: 255 })),
    vnfInstanceDescription: Type.Optional(Type.String({ maxLength: 1024 })),
    vnfdId: Type.Optional(id()),
    vnfPkgId: Type.Optional(id('Tacker v1: the package whose VNFD the instance moves to.')),
    vnfConfigurableProperties,
    metadata: Type.Optional(keyValue('Metadata (merge patch: null deletes a key).')),
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

export const CancelMode = closed({ cancelMode: stringEnum(['GRACEFUL', 'FORCEFUL'] as const) }, 'CancelMode');

export const REQUESTS_1_3_0 = {
  CreateVnfRequest,
  InstantiateVnfRequest,
  TerminateVnfRequest,
  ScaleVnfRequest,
  ScaleVnfToLevelRequest,
  HealVnfRequest,
  ChangeVnfFlavourRequest,
  OperateVnfRequest,
  ChangeExtVnfConnectivityRequest,
  VnfInfoModificationRequest,
  CancelMode,
} as const;
