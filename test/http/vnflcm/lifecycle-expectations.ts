/**
 * What the lifecycle scenario (lifecycle.test.ts) sends and expects differently on each LCM major:
 * SOL003 v2.6.1 on /vnflcm/v1 (vimConnectionInfo and cpConfig arrays, VNFCs named by their
 * vnfcResourceInfo id, no vnfcInfo or maxScaleLevels, the zone in VNFC metadata, the package
 * shown as vnfPkgId, Tacker's client leaving the Version header out) and v3.3.1 on /vnflcm/v2.
 */
import assert from 'node:assert/strict';
import { isProblem } from '../../support/http.ts';
import { idOf } from './lcm-client.ts';
import { H } from './lcm-support.ts';
import type { Major } from './majors.ts';
import { extVirtualLinkV1 } from './v1-support.ts';

type Json = Record<string, unknown>;
type Handle = { resourceId: string; vimConnectionId?: string };
type Vnfc = { id: string; vduId: string; zoneId?: string; computeResource: Handle; metadata?: Json };

/** A VnfInstance of either major, as the scenario reads it. */
export interface LifeInstance {
  id: string;
  vnfPkgId?: string;
  vnfProvider: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  instantiationState: string;
  instantiatedVnfInfo?: {
    vnfState: string;
    scaleStatus?: { aspectId: string; scaleLevel: number }[];
    maxScaleLevels?: { aspectId: string; scaleLevel: number }[];
    vnfcResourceInfo?: Vnfc[];
    vnfcInfo?: { id: string; vduId: string; vnfcResourceInfoId: string; vnfcConfigurableProperties?: Json }[];
    vnfVirtualLinkResourceInfo?: { id: string }[];
    extVirtualLinkInfo?: { id: string }[];
    extCpInfo?: { id: string; cpdId: string; cpProtocolInfo: unknown[] }[];
  };
  vimConnectionInfo?: unknown;
  metadata?: Json;
  extensions?: Json;
  _links: Record<string, { href: string }>;
}

/** A VnfLcmOpOcc of either major, as the scenario reads it. */
export interface LifeOpOcc {
  id: string;
  operation: string;
  operationState: string;
  grantId?: string;
  isCancelPending: boolean;
  operationParams: Json;
  error?: unknown;
  resourceChanges?: Record<
    'affectedVnfcs' | 'affectedVirtualLinks' | 'affectedVirtualStorages',
    (Json & { id: string; changeType: string })[]
  >;
  changedInfo?: Json;
  changedExtConnectivity?: Json[];
  _links: Record<string, { href: string }>;
}

interface Calls {
  patch(body: object): Promise<{ status: number; text: string; headers: Headers }>;
  wait(id: string): Promise<LifeOpOcc>;
  show(): Promise<LifeInstance>;
}

export interface LifeExpectations {
  /** The Version header of the responses. */
  version: string;
  /** The headers Tacker's client sends on task requests (v1: no Version header, optional there). */
  tackerHeaders: Record<string, string>;
  created(inst: LifeInstance, pkgId: string): void;
  instantiated(now: LifeInstance, op: LifeOpOcc): void;
  zoneOf(vnfc: Vnfc): unknown;
  /** A VNFC of a VDU as SOL002 requests name it, and its vnfcResourceInfo id. */
  vnfcOf(now: LifeInstance, vduId: string): { id: string; resourceId: string };
  extVirtualLink: Json;
  externallyConnected(now: LifeInstance, post: (body: object) => Promise<unknown>): Promise<void>;
  /** The major's own attributes in the modify request, and what they lead to. */
  modify(now: LifeInstance): {
    contentType: string;
    body: Json;
    check(op: LifeOpOcc, now: LifeInstance, calls: Calls): Promise<void>;
  };
  /** The operations the scenario ran, sorted. */
  operationsRun: string[];
}

const operationsRun = (modifies: number) =>
  [
    'CHANGE_EXT_CONN',
    'HEAL',
    'HEAL',
    'INSTANTIATE',
    ...Array(modifies).fill('MODIFY_INFO'),
    'OPERATE',
    'OPERATE',
    'OPERATE',
    'SCALE',
    'SCALE',
    'SCALE_TO_LEVEL',
    'SCALE_TO_LEVEL',
    'TERMINATE',
  ] as string[];

const secret = 'never-shown-v1';

export const EXPECTED: Record<Major['major'], LifeExpectations> = {
  v1: {
    version: '1.3.0',
    tackerHeaders: {},
    created: (inst, pkgId) => assert.equal(inst.vnfPkgId, pkgId),
    instantiated(now, op) {
      assert.equal('affectedExtLinkPorts' in (op.resourceChanges ?? {}), false);
      for (const vnfc of op.resourceChanges?.affectedVnfcs ?? []) {
        assert.equal('zoneId' in vnfc, false);
        assert.equal(typeof (vnfc.metadata as { zone?: unknown }).zone, 'string');
      }
      // v2.6.1 shapes: vimConnectionInfo is an array, no vnfcInfo or maxScaleLevels, the zone in
      // the VNFC's metadata.
      assert.deepEqual(
        (now.vimConnectionInfo as Json[] | undefined)?.map((v) => [v.id, v.vimType]),
        [['default', 'BOSUN.SIM.V1']],
      );
      const info = now.instantiatedVnfInfo as Json;
      for (const v3only of ['vnfcInfo', 'maxScaleLevels', 'metadata']) assert.equal(v3only in info, false);
      for (const v of now.instantiatedVnfInfo?.vnfcResourceInfo ?? []) {
        assert.equal('zoneId' in v, false);
        assert.match(String(v.metadata?.zone), /^zone-/);
      }
      assert.equal(now._links.changeCurrentVnfPkg, undefined);
      // v2.6.1 names: an affected VL's descriptor is virtualLinkDescId; extCpInfo is 1..N, so an
      // instance without external connectivity has none (not []).
      for (const vl of op.resourceChanges?.affectedVirtualLinks ?? []) {
        assert.match(String(vl.virtualLinkDescId), /^internalVL\d$/);
        assert.equal('vnfVirtualLinkDescId' in vl, false);
      }
      assert.equal('extCpInfo' in info, false);
    },
    zoneOf: (vnfc) => vnfc.metadata?.zone,
    vnfcOf(now, vduId) {
      const vnfc = now.instantiatedVnfInfo?.vnfcResourceInfo?.find((v) => v.vduId === vduId);
      assert.ok(vnfc);
      return { id: vnfc.id, resourceId: vnfc.id };
    },
    extVirtualLink: extVirtualLinkV1('ext-1', 'net-ext-1'),
    async externallyConnected(now, post) {
      const extCps = now.instantiatedVnfInfo?.extCpInfo ?? [];
      assert.equal(extCps.length, 2, 'both VDU1 VNFCs have their VDU1_CP1 on the external VL');
      for (const cp of extCps) {
        assert.equal(cp.cpdId, 'VDU1_CP1');
        assert.equal('cpConfigId' in cp, false);
        assert.ok(cp.cpProtocolInfo.length > 0);
      }
      // Duplicate ids in a v2.6.1 array are refused at once.
      const duplicates = await post({
        extVirtualLinks: [extVirtualLinkV1('ext-1', 'net-ext-1')],
        vimConnectionInfo: [
          { id: 'v', vimType: 'BOSUN.SIM.V1' },
          { id: 'v', vimType: 'BOSUN.SIM.V1' },
        ],
      });
      assert.ok(isProblem(duplicates as Parameters<typeof isProblem>[0], 400));
    },
    modify: () => ({
      // The Tacker client sends application/json (SOL says merge-patch+json): both are accepted.
      contentType: 'application/json',
      body: {
        vimConnectionInfo: [
          {
            id: 'spare',
            vimType: 'BOSUN.SIM.V1',
            interfaceInfo: { endpoint: 'http://sim.invalid' },
            accessInfo: { password: secret },
          },
        ],
      },
      async check(op, now, calls) {
        assert.deepEqual(op.changedInfo?.vimConnectionInfo, [
          { id: 'spare', vimType: 'BOSUN.SIM.V1', interfaceInfo: { endpoint: 'http://sim.invalid' } },
        ]);
        assert.equal(JSON.stringify(op).includes(secret), false);
        assert.deepEqual(
          (now.vimConnectionInfo as Json[] | undefined)?.map((v) => v.id),
          ['default', 'spare'],
        );
        assert.equal(JSON.stringify(now).includes(secret), false);
        // vimConnectionInfoDeleteIds removes the entry again.
        const removed = await calls.patch({ vimConnectionInfoDeleteIds: ['spare'] });
        assert.equal(removed.status, 202, removed.text);
        const removeOp = await calls.wait(idOf(removed.headers.get('location')));
        assert.deepEqual(removeOp.operationParams, { vimConnectionInfoDeleteIds: ['spare'] });
        assert.deepEqual(removeOp.changedInfo, { vimConnectionInfoDeleteIds: ['spare'] });
        assert.deepEqual(
          ((await calls.show()).vimConnectionInfo as Json[] | undefined)?.map((v) => v.id),
          ['default'],
        );
      },
    }),
    operationsRun: operationsRun(2),
  },
  v2: {
    version: '2.0.0',
    tackerHeaders: H,
    created: (inst) => assert.equal('vnfPkgId' in inst, false),
    instantiated(now) {
      assert.deepEqual(now.instantiatedVnfInfo?.maxScaleLevels, [{ aspectId: 'VDU1_scale', scaleLevel: 2 }]);
      assert.equal(now.instantiatedVnfInfo?.vnfcInfo?.length, 2);
      const vims = now.vimConnectionInfo as Record<string, Json> | undefined;
      assert.equal(vims?.default?.vimType, 'BOSUN.SIM.V1');
      assert.equal(vims?.default?.accessInfo, undefined);
    },
    zoneOf: (vnfc) => vnfc.zoneId,
    vnfcOf(now, vduId) {
      const vnfc = now.instantiatedVnfInfo?.vnfcInfo?.find((v) => v.vduId === vduId);
      assert.ok(vnfc);
      return { id: vnfc.id, resourceId: vnfc.vnfcResourceInfoId };
    },
    extVirtualLink: {
      id: 'ext-1',
      resourceId: 'net-ext-1',
      extCps: [
        {
          cpdId: 'VDU1_CP1',
          cpConfig: {
            c1: {
              cpProtocolData: [
                {
                  layerProtocol: 'IP_OVER_ETHERNET',
                  ipOverEthernet: { ipAddresses: [{ type: 'IPV4', numDynamicAddresses: 1 }] },
                },
              ],
            },
          },
        },
      ],
    },
    externallyConnected: async () => {},
    modify(now) {
      const vnfcInfoId = now.instantiatedVnfInfo?.vnfcInfo?.[0].id;
      return {
        contentType: 'application/merge-patch+json',
        body: { vnfcInfoModifications: [{ id: vnfcInfoId, vnfcConfigurableProperties: { debug: true } }] },
        async check(_op, now) {
          const vnfc = now.instantiatedVnfInfo?.vnfcInfo?.find((v) => v.id === vnfcInfoId);
          assert.deepEqual(vnfc?.vnfcConfigurableProperties, { debug: true });
        },
      };
    },
    operationsRun: operationsRun(1),
  },
};
