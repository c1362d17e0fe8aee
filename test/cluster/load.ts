/**
 * The clients of the cluster fault tests: LCM clients that create, instantiate, scale out and in,
 * terminate and delete instances on the simulated VIM, and a package client that creates, uploads,
 * onboards, disables and deletes packages, all through the load balancer until told to stop. They
 * count every request that fails (a 5xx or no answer) and, as a careful SOL client does, recover:
 * a POST whose answer was lost is looked up (the op occ it may have started) before it is sent
 * again, a FAILED_TEMP op occ is retried, a ROLLED_BACK one started again.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const LCM = '/vnflcm/v2';
const LCM_H = { Version: '2.0.0', 'content-type': 'application/json' };
const PKG = '/vnfpkgm/v2/vnf_packages';
const PKG_H = { Version: '2.1.0' };
const FINAL = ['COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK'];

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { id?: string };
}

/** What the clients saw: every failed request by kind, every op occ with its end. */
export interface LoadReport {
  requests: number;
  /** `POST /vnflcm/v2/...: 502` or `GET ...: fetch failed`, with counts. */
  failures: Map<string, number>;
  /** Op occ id → its operation and final state. */
  opOccs: Map<string, { operation: string; state: string; instanceId: string }>;
  /** Op occs that ended FAILED_TEMP at least once and were retried. */
  retried: Set<string>;
  /** Op occs that ended ROLLED_BACK and whose operation was started again. */
  restarted: number;
  /** Op occs a client gave up on (FAILED, or still not final at the end). */
  unfinished: string[];
  /** Instances whose VNFC count after an operation was not what the operation should leave. */
  vnfcMismatches: string[];
  /** Instances still alive (not deleted) when the load stopped. */
  liveInstances: Set<string>;
  packages: { onboarded: number; failedCleanly: number; deleted: number; stuck: string[] };
}

export const failedRequests = (r: LoadReport) => [...r.failures.values()].reduce((a, b) => a + b, 0);

export interface LoadOptions {
  url: string;
  vnfdId: string;
  lcmClients: number;
  /** A package zip to onboard and delete again and again (its vnfdId differs from `vnfdId`'s). */
  packageZip?: Buffer;
}

export interface Load {
  report: LoadReport;
  /** Lets every client finish the cycle it is in (follows its op occs to the end) and resolves. */
  stop(): Promise<LoadReport>;
}

export function startLoad(options: LoadOptions): Load {
  const report: LoadReport = {
    requests: 0,
    failures: new Map(),
    opOccs: new Map(),
    retried: new Set(),
    restarted: 0,
    unfinished: [],
    vnfcMismatches: [],
    liveInstances: new Set(),
    packages: { onboarded: 0, failedCleanly: 0, deleted: 0, stuck: [] },
  };
  let stopping = false;
  const fail = (what: string) => report.failures.set(what, (report.failures.get(what) ?? 0) + 1);

  /** One request; undefined when it failed (a 5xx or no answer), which is counted. */
  async function call(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Answer | undefined> {
    report.requests += 1;
    const route = `${method} ${path.replace(/[0-9a-f-]{36}/g, '{id}').split('?')[0]}`;
    try {
      const res = await fetch(options.url + path, {
        method,
        headers,
        body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      if (res.status >= 500) {
        fail(`${route}: ${res.status}`);
        return undefined;
      }
      const parsed = text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : {};
      return { status: res.status, headers: res.headers, body: parsed };
    } catch (err) {
      fail(`${route}: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** Calls until an answer comes (a failure is counted each time), bounded. */
  async function insist(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    for (let i = 0; i < 200; i++) {
      const answer = await call(method, path, headers, body);
      if (answer) return answer;
      await sleep(250);
    }
    throw new Error(`${method} ${path}: no answer after 200 tries`);
  }

  const opOccsOf = async (instanceId: string) => {
    const res = await insist('GET', `${LCM}/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,${instanceId})`, LCM_H);
    return (res.body as unknown as { id: string; operation: string; operationState: string }[]) ?? [];
  };

  /** Starts `task` once: the op occ id, found again when the answer was lost. */
  async function start(
    instanceId: string,
    task: string,
    operation: string,
    body: unknown,
    known: Set<string>,
  ) {
    for (let i = 0; i < 100; i++) {
      const res = await call('POST', `${LCM}/vnf_instances/${instanceId}/${task}`, LCM_H, body);
      if (res?.status === 202) {
        const id = (res.headers.get('location') ?? '').split('/').pop() ?? '';
        known.add(id);
        return id;
      }
      if (res && res.status !== 409) throw new Error(`${task}: ${res.status} ${JSON.stringify(res.body)}`);
      // No answer or "busy": the POST may have started the op occ on a replica that then died.
      const started = (await opOccsOf(instanceId)).find((o) => o.operation === operation && !known.has(o.id));
      if (started) {
        known.add(started.id);
        return started.id;
      }
      await sleep(300);
    }
    throw new Error(`${task} of ${instanceId} could not be started`);
  }

  async function follow(id: string): Promise<string> {
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      const res = await call('GET', `${LCM}/vnf_lcm_op_occs/${id}`, LCM_H);
      const state = res?.body.operationState as string | undefined;
      if (state && FINAL.includes(state)) return state;
      await sleep(150);
    }
    return 'NOT_FINAL';
  }

  /** Runs one operation to COMPLETED (retrying, or starting it again, as its end asks). */
  async function operate(
    instanceId: string,
    task: string,
    operation: string,
    body: unknown,
  ): Promise<boolean> {
    const known = new Set<string>();
    for (let attempt = 0; attempt < 5; attempt++) {
      const id = await start(instanceId, task, operation, body, known);
      let state = await follow(id);
      for (let retry = 0; state === 'FAILED_TEMP' && retry < 5; retry++) {
        report.retried.add(id);
        const res = await call('POST', `${LCM}/vnf_lcm_op_occs/${id}/retry`, LCM_H);
        if (res && res.status !== 202 && res.status !== 409) break;
        state = await follow(id);
      }
      report.opOccs.set(id, { operation, state, instanceId });
      if (state === 'COMPLETED') return true;
      if (state !== 'ROLLED_BACK') {
        report.unfinished.push(`${id} (${operation}): ${state}`);
        return false;
      }
      report.restarted += 1;
    }
    return false;
  }

  const vnfcCount = async (instanceId: string) => {
    const res = await insist('GET', `${LCM}/vnf_instances/${instanceId}`, LCM_H);
    const info = res.body.instantiatedVnfInfo as { vnfcResourceInfo?: unknown[] } | undefined;
    const count = info?.vnfcResourceInfo?.length ?? 0;
    // The simulated VIM's own servers: an infra step run twice would leave one more than the instance knows.
    const servers = await insist('GET', `/bosun/v1/sim/servers?instanceId=${instanceId}`, {});
    const built = (servers.body as unknown as unknown[]).length;
    if (built !== count) report.vnfcMismatches.push(`${instanceId}: ${built} servers for ${count} VNFCs`);
    return count;
  };

  async function lcmCycle(): Promise<void> {
    let created: Answer | undefined;
    while (!created) {
      created = await call('POST', `${LCM}/vnf_instances`, LCM_H, { vnfdId: options.vnfdId });
      if (created && created.status !== 201) throw new Error(`create: ${created.status}`);
      if (!created) await sleep(250);
    }
    const id = created.body.id as string;
    report.liveInstances.add(id);
    if (!(await operate(id, 'instantiate', 'INSTANTIATE', { flavourId: 'simple' }))) return;
    const base = await vnfcCount(id);
    const scale = (type: string) => ({ type, aspectId: 'VDU1_scale', numberOfSteps: 1 });
    if (!(await operate(id, 'scale', 'SCALE', scale('SCALE_OUT')))) return;
    if ((await vnfcCount(id)) !== base + 1) report.vnfcMismatches.push(`${id} after scale out`);
    if (!(await operate(id, 'scale', 'SCALE', scale('SCALE_IN')))) return;
    if ((await vnfcCount(id)) !== base) report.vnfcMismatches.push(`${id} after scale in`);
    if (!(await operate(id, 'terminate', 'TERMINATE', { terminationType: 'FORCEFUL' }))) return;
    const deleted = await insist('DELETE', `${LCM}/vnf_instances/${id}`, LCM_H);
    // 404: an earlier DELETE whose answer was lost had deleted it.
    if (deleted.status === 204 || deleted.status === 404) report.liveInstances.delete(id);
  }

  async function settle(id: string): Promise<string> {
    const until = Date.now() + 90_000;
    while (Date.now() < until) {
      const res = await call('GET', `${PKG}/${id}`, PKG_H);
      const state = res?.body.onboardingState as string | undefined;
      if (state === 'ONBOARDED' || state === 'CREATED' || state === 'ERROR') return state;
      await sleep(150);
    }
    return 'NOT_SETTLED';
  }

  async function packageCycle(zip: Buffer): Promise<void> {
    let created: Answer | undefined;
    while (!created) {
      created = await call('POST', PKG, { ...PKG_H, 'content-type': 'application/json' }, {});
      if (!created) await sleep(250);
    }
    const id = created.body.id as string;
    let state = 'CREATED';
    for (let i = 0; i < 10 && state !== 'ONBOARDED'; i++) {
      const put = await call(
        'PUT',
        `${PKG}/${id}/package_content`,
        { ...PKG_H, 'content-type': 'application/zip' },
        zip,
      );
      // Lost answer, refusal while the previous upload's lease runs out, or done: see where it is.
      if (put && put.status !== 202 && put.status !== 409) throw new Error(`upload: ${put.status}`);
      state = await settle(id);
      if (state !== 'ONBOARDED') await sleep(500);
    }
    if (state === 'ONBOARDED') {
      report.packages.onboarded += 1;
      await insist(
        'PATCH',
        `${PKG}/${id}`,
        { ...PKG_H, 'content-type': 'application/merge-patch+json' },
        {
          operationalState: 'DISABLED',
        },
      );
    } else if (state === 'CREATED') report.packages.failedCleanly += 1;
    else {
      report.packages.stuck.push(`${id}: ${state}`);
      return;
    }
    const deleted = await insist('DELETE', `${PKG}/${id}`, PKG_H);
    if (deleted.status === 204 || deleted.status === 404) report.packages.deleted += 1;
    else report.packages.stuck.push(`${id}: DELETE ${deleted.status}`);
  }

  const loop = async (cycle: () => Promise<void>) => {
    while (!stopping) await cycle();
  };
  const running = [
    ...Array.from({ length: options.lcmClients }, () => loop(lcmCycle)),
    ...(options.packageZip ? [loop(() => packageCycle(options.packageZip as Buffer))] : []),
  ];
  return {
    report,
    async stop() {
      stopping = true;
      await Promise.all(running);
      return report;
    },
  };
}
