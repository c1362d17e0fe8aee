/**
 * SOL002/SOL003 VNF lifecycle management calls of the CLI: `/vnflcm/v2` (API 2.0.0) by default,
 * `/vnflcm/v1` (1.3.0) when asked. VNF instances, their operation task resources (answering 202
 * with the Location of an op occ) and the op occs, with a follower that polls an op occ until it
 * ends.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { LcmMajor } from '../../lcm/majors/index.ts';
import { CliError } from '../output.ts';
import type { ApiClient } from './client.ts';

/** The LCM majors are the server's table (type only: the CLI loads none of the LCM's code). */
export type { LcmMajor };

/** API version sent in the `Version` header of each major. */
export const LCM_VERSIONS: Readonly<Record<LcmMajor, string>> = { v1: '1.3.0', v2: '2.0.0' };

/** The fields of a VnfInstance (v2.6.1 or v3.3.1) the CLI reads; the rest passes through. */
export interface VnfInstance {
  id: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  vnfdId: string;
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
  vnfPkgId?: string;
  instantiationState: string;
  instantiatedVnfInfo?: {
    flavourId: string;
    vnfState: string;
    scaleStatus?: { aspectId: string; scaleLevel: number }[];
    maxScaleLevels?: { aspectId: string; scaleLevel: number }[];
    vnfcResourceInfo?: {
      id: string;
      vduId: string;
      zoneId?: string;
      computeResource?: { resourceId?: string };
      metadata?: Record<string, unknown>;
    }[];
    vnfcInfo?: { id: string; vduId: string; vnfcResourceInfoId?: string; vnfcState?: string }[];
    vnfVirtualLinkResourceInfo?: unknown[];
    virtualStorageResourceInfo?: unknown[];
    extCpInfo?: unknown[];
    [key: string]: unknown;
  };
  metadata?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The fields of a VnfLcmOpOcc the CLI reads. */
export interface OpOcc {
  id: string;
  operationState: string;
  operation: string;
  vnfInstanceId: string;
  startTime?: string;
  stateEnteredTime?: string;
  isCancelPending?: boolean;
  cancelMode?: string;
  error?: { status?: number; title?: string; detail?: string; [key: string]: unknown };
  resourceChanges?: Record<string, { changeType: string }[] | undefined>;
  _links?: Record<string, { href: string }>;
  [key: string]: unknown;
}

export const FINAL_STATES: readonly string[] = ['COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK'];

/** The LCM API of one major on a server. */
export class LcmApi {
  readonly api: ApiClient;
  readonly major: LcmMajor;

  constructor(api: ApiClient, major: LcmMajor) {
    this.api = api;
    this.major = major;
  }

  get prefix(): string {
    return `/vnflcm/${this.major}`;
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    return { version: LCM_VERSIONS[this.major], ...extra };
  }

  #instance(id: string, rest = ''): string {
    return `${this.prefix}/vnf_instances/${encodeURIComponent(id)}${rest}`;
  }

  #opOcc(id: string, rest = ''): string {
    return `${this.prefix}/vnf_lcm_op_occs/${encodeURIComponent(id)}${rest}`;
  }

  /** The op occ id at the end of a 202's Location header. */
  #opOccOf(res: Response, what: string): string {
    const location = res.headers.get('location');
    if (!location) throw new CliError(`the server accepted ${what} but sent no Location of its op occ`);
    const path = new URL(location, 'http://base.invalid').pathname.replace(/\/+$/, '');
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  }

  #list<T>(path: string, query: URLSearchParams): Promise<T[]> {
    const q = query.toString();
    return this.api.list<T>(q ? `${path}?${q}` : path, this.#headers());
  }

  createInstance(body: Record<string, unknown>): Promise<VnfInstance> {
    return this.api.json<VnfInstance>('POST', `${this.prefix}/vnf_instances`, {
      json: body,
      headers: this.#headers(),
    });
  }

  listInstances(query: URLSearchParams): Promise<VnfInstance[]> {
    return this.#list<VnfInstance>(`${this.prefix}/vnf_instances`, query);
  }

  getInstance(id: string): Promise<VnfInstance> {
    return this.api.json<VnfInstance>('GET', this.#instance(id), { headers: this.#headers() });
  }

  /** PATCH (merge patch): a MODIFY_INFO op occ; returns its id. */
  async modifyInstance(id: string, body: Record<string, unknown>, ifMatch?: string): Promise<string> {
    const res = await this.api.request('PATCH', this.#instance(id), {
      json: body,
      contentType: 'application/merge-patch+json',
      headers: this.#headers(ifMatch ? { 'if-match': ifMatch } : {}),
    });
    return this.#opOccOf(res, 'the modification');
  }

  async deleteInstance(id: string): Promise<void> {
    await this.api.request('DELETE', this.#instance(id), { headers: this.#headers() });
  }

  /** POSTs a task resource (instantiate, scale, …); returns the op occ id from Location. */
  async startTask(id: string, task: string, body: Record<string, unknown>): Promise<string> {
    const res = await this.api.request('POST', this.#instance(id, `/${task}`), {
      json: body,
      headers: this.#headers(),
    });
    return this.#opOccOf(res, task);
  }

  listOpOccs(query: URLSearchParams): Promise<OpOcc[]> {
    return this.#list<OpOcc>(`${this.prefix}/vnf_lcm_op_occs`, query);
  }

  getOpOcc(id: string): Promise<OpOcc> {
    return this.api.json<OpOcc>('GET', this.#opOcc(id), { headers: this.#headers() });
  }

  /** retry, rollback (no body) or cancel (with cancelMode): 202. */
  async opOccTask(id: string, task: 'retry' | 'rollback' | 'cancel', body?: object): Promise<void> {
    await this.api.request('POST', this.#opOcc(id, `/${task}`), {
      ...(body ? { json: body } : {}),
      headers: this.#headers(),
    });
  }

  /** fail: 200 with the op occ, now FAILED. */
  failOpOcc(id: string): Promise<OpOcc> {
    return this.api.json<OpOcc>('POST', this.#opOcc(id, '/fail'), { headers: this.#headers() });
  }
}

export interface FollowOptions {
  /** Give up after this many seconds. */
  timeoutSeconds: number;
  /** Called with every op occ read (after the first, only when something changed). */
  onUpdate?: (opOcc: OpOcc, changed: boolean) => void;
  /** Called between reads (e.g. to animate a spinner); returns nothing. */
  onTick?: () => void;
  /** First delay between reads, doubled up to `maxIntervalMs` (default 100 and 1000 ms). */
  intervalMs?: number;
  maxIntervalMs?: number;
}

/**
 * Polls the op occ until it is in a final state (or, with `until`, one of those states) and
 * returns it; throws after the timeout.
 */
export async function followOpOcc(
  lcm: LcmApi,
  id: string,
  options: FollowOptions,
  until: readonly string[] = FINAL_STATES,
): Promise<OpOcc> {
  const deadline = Date.now() + options.timeoutSeconds * 1000;
  let delay = options.intervalMs ?? 100;
  const max = options.maxIntervalMs ?? 1000;
  let last: string | undefined;
  for (;;) {
    const opOcc = await lcm.getOpOcc(id);
    const key = `${opOcc.operationState} ${opOcc.isCancelPending === true}`;
    options.onUpdate?.(opOcc, key !== last);
    last = key;
    if (until.includes(opOcc.operationState)) return opOcc;
    if (Date.now() >= deadline) {
      throw new CliError(
        `op occ ${id} (${opOcc.operation}) still ${opOcc.operationState} after ${options.timeoutSeconds} s`,
      );
    }
    // Short sleeps so that a spinner keeps turning while waiting.
    const until_ = Date.now() + delay;
    while (Date.now() < until_) {
      options.onTick?.();
      await sleep(Math.min(100, Math.max(until_ - Date.now(), 1)));
    }
    delay = Math.min(delay * 2, max);
  }
}
