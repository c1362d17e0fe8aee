/**
 * JSON schemas of the /vnflcm/v2 representations (SOL003 v3.3.1 VnfInstance and VnfLcmOpOcc).
 * ETSI publishes no JSON schemas for v3.x, so these are Bosun's own reading of the document; the
 * tests validate every representation against them. Top levels are closed: an attribute the API
 * does not define (a credential, engine bookkeeping) fails validation.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { OPERATION_STATES, OPERATIONS } from '../../../../sol/lcm-operations.ts';

const str = Type.String();
const opt = <T extends TSchema>(s: T) => Type.Optional(s);
const link = Type.Object({ href: Type.String({ format: 'uri' }) }, { additionalProperties: false });
const keyValue = Type.Record(Type.String(), Type.Unknown());

const ResourceHandle = Type.Object(
  {
    vimConnectionId: opt(str),
    resourceProviderId: opt(str),
    resourceId: str,
    vimLevelResourceType: opt(str),
  },
  { additionalProperties: false },
);

const CpProtocolInfo = Type.Object(
  {
    layerProtocol: Type.Literal('IP_OVER_ETHERNET'),
    ipOverEthernet: opt(
      Type.Object({
        macAddress: opt(str),
        ipAddresses: opt(
          Type.Array(
            Type.Object({
              type: Type.Union([Type.Literal('IPV4'), Type.Literal('IPV6')]),
              addresses: opt(Type.Array(str)),
              isDynamic: opt(Type.Boolean()),
              subnetId: opt(str),
            }),
          ),
        ),
      }),
    ),
  },
  { additionalProperties: false },
);

const VnfcResourceInfo = Type.Object(
  {
    id: str,
    vduId: str,
    zoneId: opt(str),
    computeResource: ResourceHandle,
    storageResourceIds: opt(Type.Array(str)),
    reservationId: opt(str),
    vnfcCpInfo: opt(
      Type.Array(
        Type.Object(
          {
            id: str,
            cpdId: str,
            vnfExtCpId: opt(str),
            cpProtocolInfo: opt(Type.Array(CpProtocolInfo)),
            vnfLinkPortId: opt(str),
            metadata: opt(keyValue),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    metadata: opt(keyValue),
  },
  { additionalProperties: false },
);

const VnfLinkPortInfo = Type.Object(
  {
    id: str,
    resourceHandle: ResourceHandle,
    cpInstanceId: opt(str),
    cpInstanceType: opt(Type.Union([Type.Literal('VNFC_CP'), Type.Literal('EXT_CP')])),
  },
  { additionalProperties: false },
);

const ScaleInfo = Type.Object(
  { aspectId: str, vnfdId: opt(str), scaleLevel: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);

export const InstantiatedVnfInfoSchema = Type.Object(
  {
    flavourId: str,
    vnfState: Type.Union([Type.Literal('STARTED'), Type.Literal('STOPPED')]),
    scaleStatus: opt(Type.Array(ScaleInfo)),
    maxScaleLevels: opt(Type.Array(ScaleInfo)),
    extCpInfo: Type.Array(Type.Object({ id: str, cpdId: str }, { additionalProperties: true })),
    extVirtualLinkInfo: opt(
      Type.Array(Type.Object({ id: str, resourceHandle: ResourceHandle }, { additionalProperties: true })),
    ),
    extManagedVirtualLinkInfo: opt(
      Type.Array(Type.Object({ id: str, vnfVirtualLinkDescId: str }, { additionalProperties: true })),
    ),
    vnfcResourceInfo: opt(Type.Array(VnfcResourceInfo)),
    vnfVirtualLinkResourceInfo: opt(
      Type.Array(
        Type.Object(
          {
            id: str,
            vnfVirtualLinkDescId: str,
            networkResource: ResourceHandle,
            reservationId: opt(str),
            vnfLinkPorts: opt(Type.Array(VnfLinkPortInfo)),
            metadata: opt(keyValue),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    virtualStorageResourceInfo: opt(
      Type.Array(
        Type.Object(
          {
            id: str,
            virtualStorageDescId: str,
            storageResource: ResourceHandle,
            reservationId: opt(str),
            metadata: opt(keyValue),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    vnfcInfo: opt(
      Type.Array(
        Type.Object(
          {
            id: str,
            vduId: str,
            vnfcResourceInfoId: str,
            vnfcState: Type.Union([Type.Literal('STARTED'), Type.Literal('STOPPED')]),
            vnfcConfigurableProperties: opt(keyValue),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    localizationLanguage: opt(str),
    metadata: opt(keyValue),
  },
  { additionalProperties: false },
);

const VimConnectionInfo = Type.Object(
  { vimId: opt(str), vimType: str, interfaceInfo: opt(keyValue), extra: opt(keyValue) },
  { additionalProperties: false },
);

export const VnfInstanceSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    vnfInstanceName: opt(str),
    vnfInstanceDescription: opt(str),
    vnfdId: str,
    vnfProvider: str,
    vnfProductName: str,
    vnfSoftwareVersion: str,
    vnfdVersion: str,
    vnfConfigurableProperties: opt(keyValue),
    vimConnectionInfo: opt(Type.Record(Type.String(), VimConnectionInfo)),
    instantiationState: Type.Union([Type.Literal('NOT_INSTANTIATED'), Type.Literal('INSTANTIATED')]),
    instantiatedVnfInfo: opt(InstantiatedVnfInfoSchema),
    metadata: opt(keyValue),
    extensions: opt(keyValue),
    _links: Type.Object(
      {
        self: link,
        indicators: opt(link),
        instantiate: opt(link),
        terminate: opt(link),
        scale: opt(link),
        scaleToLevel: opt(link),
        changeFlavour: opt(link),
        heal: opt(link),
        operate: opt(link),
        changeExtConn: opt(link),
        createSnapshot: opt(link),
        revertToSnapshot: opt(link),
        changeCurrentVnfPkg: opt(link),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** LcmOperationType of v3.3.1: the engine's operations and the snapshot ones it does not run. */
const operations = [...OPERATIONS, 'CREATE_SNAPSHOT', 'REVERT_TO_SNAPSHOT'];
const change = (extra: Record<string, TSchema>) =>
  Type.Object(
    { id: str, changeType: str, metadata: opt(keyValue), ...extra },
    { additionalProperties: true },
  );

export const ProblemDetailsSchema = Type.Object(
  { type: opt(str), title: opt(str), status: Type.Integer(), detail: str, instance: opt(str) },
  { additionalProperties: true },
);

export const VnfLcmOpOccSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    operationState: Type.Unsafe<string>({ type: 'string', enum: OPERATION_STATES }),
    stateEnteredTime: Type.String({ format: 'date-time' }),
    startTime: Type.String({ format: 'date-time' }),
    vnfInstanceId: Type.String({ format: 'uuid' }),
    grantId: opt(str),
    operation: Type.Unsafe<string>({ type: 'string', enum: operations }),
    isAutomaticInvocation: Type.Boolean(),
    operationParams: opt(keyValue),
    isCancelPending: Type.Boolean(),
    cancelMode: opt(Type.Union([Type.Literal('GRACEFUL'), Type.Literal('FORCEFUL')])),
    error: opt(ProblemDetailsSchema),
    resourceChanges: opt(
      Type.Object(
        {
          affectedVnfcs: opt(Type.Array(change({ vduId: str, computeResource: ResourceHandle }))),
          affectedVirtualLinks: opt(
            Type.Array(change({ vnfVirtualLinkDescId: str, networkResource: ResourceHandle })),
          ),
          affectedExtLinkPorts: opt(
            Type.Array(change({ extCpInstanceId: str, resourceHandle: ResourceHandle })),
          ),
          affectedVirtualStorages: opt(
            Type.Array(change({ virtualStorageDescId: str, storageResource: ResourceHandle })),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    changedInfo: opt(keyValue),
    changedExtConnectivity: opt(
      Type.Array(Type.Object({ id: str, resourceHandle: ResourceHandle }, { additionalProperties: true })),
    ),
    modificationsTriggeredByVnfPkgChange: opt(keyValue),
    vnfSnapshotInfoId: opt(str),
    _links: Type.Object(
      {
        self: link,
        vnfInstance: link,
        grant: opt(link),
        cancel: opt(link),
        retry: opt(link),
        rollback: opt(link),
        fail: opt(link),
        vnfSnapshot: opt(link),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
