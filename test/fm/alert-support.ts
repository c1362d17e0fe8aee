/**
 * What the alert receiver and auto-heal tests share: receivers' credentials, an Alertmanager
 * alert to vary and a batch to post, an instantiated instance of the main sample on the simulated
 * VIM (auto-heal on or off), and reading its alarms and HEAL op occs through the APIs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createInstance, H, INSTANTIATE, type Instance, runTask, V2 } from '../http/vnflcm/lcm-support.ts';
import { http } from '../support/http.ts';

export const TOKEN = 'alertmanager-token-0123456789';
export const BASIC = { username: 'prometheus', password: 'basic-password-0123456789' };
export const RECEIVERS = [
  { name: 'am-bearer', bearerToken: TOKEN },
  { name: 'am-basic', ...BASIC },
];
export const BEARER = { authorization: `Bearer ${TOKEN}` };
export const FM = { Version: '1.3.0' };

export interface TestAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt: string;
  endsAt?: string;
  fingerprint: string;
  [key: string]: unknown;
}

/** A firing alert about `instanceId`'s server `serverId`; `labels` and `extra` vary it. */
export function alert(
  instanceId: string,
  serverId: string,
  labels: Record<string, string> = {},
  extra: Partial<TestAlert> = {},
): TestAlert {
  return {
    status: 'firing',
    labels: {
      alertname: 'ServerDown',
      function_type: 'vnffm',
      vnf_instance_id: instanceId,
      server_id: serverId,
      perceived_severity: 'CRITICAL',
      event_type: 'EQUIPMENT_ALARM',
      ...labels,
    },
    annotations: { probable_cause: 'server down', fault_type: 'Server Down', fault_details: 'no heartbeat' },
    startsAt: new Date().toISOString(),
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: 'http://prometheus.invalid/graph',
    fingerprint: randomUUID().replaceAll('-', '').slice(0, 16),
    ...extra,
  };
}

export interface BatchAnswer {
  received: number;
  raised: number;
  updated: number;
  cleared: number;
  healsQueued: number;
  refused: { index: number; fingerprint?: string; reason: string }[];
}

/** POSTs an Alertmanager webhook with these alerts. */
export function postAlerts(
  base: string,
  alerts: unknown[],
  options: { path?: string; headers?: Record<string, string> } = { headers: BEARER },
) {
  return http<BatchAnswer>(base, 'POST', options.path ?? '/alert', {
    headers: options.headers ?? {},
    body: { version: '4', status: 'firing', receiver: 'bosun', groupKey: '{}', alerts },
  });
}

/** An instance of the package `vnfdId`, instantiated on the simulated VIM. */
export async function instantiated(base: string, vnfdId: string, autoHeal: boolean): Promise<Instance> {
  const instance = await createInstance(base, vnfdId);
  const done = await runTask(base, instance.id, 'instantiate', {
    ...INSTANTIATE,
    ...(autoHeal ? { vnfConfigurableProperties: { isAutohealEnabled: true } } : {}),
  });
  assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
  const shown = await http<Instance>(base, 'GET', `${V2}/vnf_instances/${instance.id}`, { headers: H });
  return shown.body;
}

export type AlarmView = Record<string, unknown> & {
  id: string;
  managedObjectId: string;
  vnfcInstanceIds?: string[];
  rootCauseFaultyResource: { faultyResource: { resourceId: string }; faultyResourceType: string };
  perceivedSeverity: string;
  alarmClearedTime?: string;
  faultDetails?: string[];
};

export async function alarmsOf(base: string, instanceId: string, headers: Record<string, string> = {}) {
  const res = await http<AlarmView[]>(
    base,
    'GET',
    `/vnffm/v1/alarms?filter=${encodeURIComponent(`(eq,managedObjectId,${instanceId})`)}`,
    { headers: { ...FM, ...headers } },
  );
  assert.equal(res.status, 200, res.text);
  return res.body;
}

export type OpOccView = {
  id: string;
  operation: string;
  operationState: string;
  isAutomaticInvocation: boolean;
  operationParams: Record<string, unknown>;
};

export async function healsOf(base: string, instanceId: string): Promise<OpOccView[]> {
  const filter = encodeURIComponent(`(eq,vnfInstanceId,${instanceId});(eq,operation,HEAL)`);
  const res = await http<OpOccView[]>(base, 'GET', `${V2}/vnf_lcm_op_occs?all_fields&filter=${filter}`, {
    headers: H,
  });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Polls `probe` until it gives a value (not undefined); fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) assert.fail(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The server ids of an instance's VNFCs, with their vnfcInfo ids. */
export function vnfcsOf(instance: Instance): {
  serverId: string;
  vnfcResourceInfoId: string;
  vnfcInfoId: string;
  serverName?: string;
  address?: string;
}[] {
  const info = instance.instantiatedVnfInfo as {
    vnfcResourceInfo: {
      id: string;
      computeResource: { resourceId: string };
      metadata?: { serverName?: string };
      vnfcCpInfo?: { cpProtocolInfo?: { ipOverEthernet?: { ipAddresses?: { addresses?: string[] }[] } }[] }[];
    }[];
    vnfcInfo: { id: string; vnfcResourceInfoId: string }[];
  };
  return info.vnfcResourceInfo.map((v) => ({
    serverId: v.computeResource.resourceId,
    vnfcResourceInfoId: v.id,
    vnfcInfoId: info.vnfcInfo.find((i) => i.vnfcResourceInfoId === v.id)?.id ?? v.id,
    serverName: v.metadata?.serverName,
    address: (v.vnfcCpInfo ?? [])
      .flatMap((cp) => cp.cpProtocolInfo ?? [])
      .flatMap((p) => p.ipOverEthernet?.ipAddresses ?? [])
      .flatMap((a) => a.addresses ?? [])[0],
  }));
}
