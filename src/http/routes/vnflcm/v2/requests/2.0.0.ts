/**
 * Request bodies of /vnflcm/v2 at API version 2.0.0 (SOL003 v3.3.1 §5.5.2). A later minor
 * version (2.1.x) adds its own file next to this one and a line in index.ts; the routes pick the
 * schemas of the version they serve.
 * /vnflcm/v1's 1.3.0 schemas derive from these where SOL003 v2.6.1 has the same shapes.
 */
import { Type } from '@sinclair/typebox';
import { stringEnum } from '../../../../../notify/subscriptions/schema-helpers.ts';
import { closed, id, keyValue, open } from '../../request-schemas.ts';

export const VimConnectionInfo = open(
  {
    vimId: Type.Optional(id('Id of a registered VIM (bosun vim list).')),
    vimType: Type.String({ minLength: 1, description: 'e.g. BOSUN.SIM.V1, ETSINFV.OPENSTACK_KEYSTONE.V_3' }),
    interfaceInfo: Type.Optional(keyValue('Endpoint of the VIM.')),
    accessInfo: Type.Optional(keyValue('Credentials: stored sealed, never returned.')),
    extra: Type.Optional(keyValue('VIM-specific data.')),
  },
  'VimConnectionInfo',
);

const VimConnectionInfoMap = Type.Record(Type.String(), VimConnectionInfo, {
  description: 'Map of VIM connections by id (SOL003 v3.3.1).',
});

export const VnfExtCpData = open(
  {
    cpdId: id('The external CP descriptor (VnfExtCp or VduCp node).'),
    cpConfig: Type.Optional(keyValue('Map of CP configurations by id.')),
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

export const ExtManagedVirtualLinkData = open(
  {
    id: id(),
    vnfVirtualLinkDescId: id('The VnfVirtualLink node the NFVO provides.'),
    vimConnectionId: Type.Optional(id()),
    resourceProviderId: Type.Optional(id()),
    resourceId: id('The VIM network.'),
    vnfLinkPort: Type.Optional(Type.Array(keyValue('VnfLinkPortData'))),
    extManagedMultisiteVirtualLinkId: Type.Optional(id()),
  },
  'ExtManagedVirtualLinkData',
);

export const connectivity = {
  extVirtualLinks: Type.Optional(Type.Array(ExtVirtualLinkData)),
  extManagedVirtualLinks: Type.Optional(Type.Array(ExtManagedVirtualLinkData)),
  vimConnectionInfo: Type.Optional(VimConnectionInfoMap),
};

export const additionalParams = Type.Optional(
  keyValue('Parameters for the VNF-specific steps (hooks, drivers).'),
);
const extensions = Type.Optional(keyValue('VNF instance extensions to set (merge patch).'));
const vnfConfigurableProperties = Type.Optional(
  keyValue('VNF configurable properties to set (merge patch).'),
);

export const CreateVnfRequest = closed(
  {
    vnfdId: id('The VNFD of an ONBOARDED and ENABLED package.'),
    vnfInstanceName: Type.Optional(Type.String({ maxLength: 255 })),
    vnfInstanceDescription: Type.Optional(Type.String({ maxLength: 1024 })),
    metadata: Type.Optional(keyValue('Metadata of the instance.')),
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
        description: 'SOL002: ids of instantiatedVnfInfo.vnfcInfo; absent: the whole VNF (SOL003).',
      }),
    ),
    cause: Type.Optional(Type.String()),
    additionalParams,
    healScript: Type.Optional(Type.String()),
  },
  'HealVnfRequest',
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
    vnfcInstanceId: Type.Optional(Type.Array(id())),
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
    vimConnectionInfo: Type.Optional(VimConnectionInfoMap),
    additionalParams,
  },
  'ChangeExtVnfConnectivityRequest',
);

export const ChangeCurrentVnfPkgRequest = closed(
  {
    vnfdId: id('The VNFD of the target package (ONBOARDED and ENABLED).'),
    ...connectivity,
    additionalParams,
    extensions,
    vnfConfigurableProperties,
  },
  'ChangeCurrentVnfPkgRequest',
);

export const VnfInfoModificationRequest = closed(
  {
    vnfInstanceName: Type.Optional(Type.String({ maxLength: 255 })),
    vnfInstanceDescription: Type.Optional(Type.String({ maxLength: 1024 })),
    vnfdId: Type.Optional(id()),
    vnfConfigurableProperties,
    metadata: Type.Optional(keyValue('Metadata (merge patch: null deletes a key).')),
    extensions,
    vimConnectionInfo: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.Null(), VimConnectionInfo]), {
        description: 'Merge patch of the VIM connections: null deletes one.',
      }),
    ),
    vnfcInfoModifications: Type.Optional(
      Type.Array(
        closed(
          {
            id: id('An id of instantiatedVnfInfo.vnfcInfo.'),
            vnfcConfigurableProperties: keyValue('Merge patch.'),
          },
          'VnfcInfoModifications',
        ),
      ),
    ),
  },
  'VnfInfoModificationRequest',
  { minProperties: 1 },
);

export const CancelMode = closed({ cancelMode: stringEnum(['GRACEFUL', 'FORCEFUL'] as const) }, 'CancelMode');

export const REQUESTS_2_0_0 = {
  CreateVnfRequest,
  InstantiateVnfRequest,
  TerminateVnfRequest,
  ScaleVnfRequest,
  ScaleVnfToLevelRequest,
  HealVnfRequest,
  ChangeVnfFlavourRequest,
  OperateVnfRequest,
  ChangeExtVnfConnectivityRequest,
  ChangeCurrentVnfPkgRequest,
  VnfInfoModificationRequest,
  CancelMode,
} as const;
