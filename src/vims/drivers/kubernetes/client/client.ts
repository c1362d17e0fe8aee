/**
 * The Kubernetes API client of one VIM connection: JSON calls to the API server under the
 * outbound-address policy, authenticated by bearer token or client certificate, trusting the
 * cluster CA; server-side apply with Bosun's field manager, get, list by label, delete with a
 * propagation policy and grace period, and the reads the driver needs (pods, events, nodes,
 * /version). Every answer is checked against its TypeBox schema (types.ts).
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { OutboundPolicy } from '../../../../net/address-policy.ts';
import { OutboundLookupError, OutboundRefusedError } from '../../../../net/errors.ts';
import { pinnedLookup } from '../../../../net/pinned-lookup.ts';
import { InfraError, type VimConnection } from '../../../contract.ts';
import { exchange, type HttpResponse } from '../../openstack/client/http.ts';
import { type KubeCredentials, kubeCredentials } from './credentials.ts';
import { statusError, transportError } from './errors.ts';
import { collectionPath, type KindInfo, objectPath } from './kinds.ts';
import { KubeEvent, KubeList, KubeObject, Node, Pod, Version } from './types.ts';

/** The field manager of every server-side apply: what Bosun set is Bosun's. */
export const FIELD_MANAGER = 'bosun';

export interface KubeClientLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

const DEFAULT_LIMITS: KubeClientLimits = { timeoutMs: 30_000, maxResponseBytes: 32 * 2 ** 20 };

interface CallOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  contentType?: string;
  /** Statuses answered as "not there" (undefined) instead of an error. */
  absent?: readonly number[];
  signal?: AbortSignal;
}

export interface DeleteOptions {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
}

export class KubeClient {
  readonly credentials: KubeCredentials;
  readonly #policy: OutboundPolicy;
  readonly #limits: KubeClientLimits;
  #agent: HttpAgent | undefined;
  #addresses: string[] | undefined;

  constructor(credentials: KubeCredentials, policy: OutboundPolicy, limits = DEFAULT_LIMITS) {
    this.credentials = credentials;
    this.#policy = policy;
    this.#limits = limits;
  }

  /** The API server's version (the registration check: it proves the address, CA and credentials). */
  async version(signal?: AbortSignal): Promise<Version> {
    return this.#checked(
      'GET /version',
      Version,
      await this.call('GET /version', { method: 'GET', path: '/version', signal }),
    );
  }

  async get(
    info: KindInfo,
    name: string,
    namespace: string | undefined,
    signal?: AbortSignal,
  ): Promise<KubeObject | undefined> {
    const call = `get ${info.kind} ${name}`;
    const data = await this.call(call, {
      method: 'GET',
      path: objectPath(info, name, namespace),
      absent: [404],
      signal,
    });
    return data === undefined ? undefined : this.#checked(call, KubeObject, data);
  }

  async list(
    info: KindInfo,
    namespace: string | undefined,
    labelSelector?: string,
    signal?: AbortSignal,
  ): Promise<KubeObject[]> {
    const call = `list ${info.plural}${labelSelector ? ` (${labelSelector})` : ''}`;
    const data = await this.call(call, {
      method: 'GET',
      path: collectionPath(info, namespace),
      query: { labelSelector },
      // A namespace that does not exist holds nothing.
      absent: [404],
      signal,
    });
    return data === undefined ? [] : this.#checked(call, KubeList(KubeObject), data).items;
  }

  /** Server-side apply of `object` (its kind's path from `info`), forcing Bosun's ownership of what it sets. */
  async apply(
    info: KindInfo,
    object: Record<string, unknown> & { metadata: { name: string } },
    namespace: string | undefined,
    signal?: AbortSignal,
  ): Promise<KubeObject> {
    const call = `apply ${info.kind} ${object.metadata.name}`;
    const data = await this.call(call, {
      method: 'PATCH',
      path: objectPath(info, object.metadata.name, namespace),
      query: { fieldManager: FIELD_MANAGER, force: 'true' },
      body: object,
      contentType: 'application/apply-patch+yaml',
      signal,
    });
    return this.#checked(call, KubeObject, data);
  }

  /** Deletes an object; false when it was already gone. */
  async delete(
    info: KindInfo,
    name: string,
    namespace: string | undefined,
    options: DeleteOptions = {},
    signal?: AbortSignal,
  ): Promise<boolean> {
    const data = await this.call(`delete ${info.kind} ${name}`, {
      method: 'DELETE',
      path: objectPath(info, name, namespace),
      body: { kind: 'DeleteOptions', apiVersion: 'v1', ...options },
      absent: [404],
      signal,
    });
    return data !== undefined;
  }

  async pods(namespace: string, labelSelector: string | undefined, signal?: AbortSignal): Promise<Pod[]> {
    const call = `list pods${labelSelector ? ` (${labelSelector})` : ''}`;
    const data = await this.call(call, {
      method: 'GET',
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`,
      query: { labelSelector },
      absent: [404],
      signal,
    });
    return data === undefined ? [] : this.#checked(call, KubeList(Pod), data).items;
  }

  /** Merges labels and annotations into a pod's metadata (a JSON merge patch: nothing else changes). */
  async patchPodMetadata(
    namespace: string,
    name: string,
    metadata: { labels?: Record<string, string>; annotations?: Record<string, string> },
    signal?: AbortSignal,
  ): Promise<boolean> {
    const data = await this.call(`label pod ${name}`, {
      method: 'PATCH',
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`,
      body: { metadata },
      contentType: 'application/merge-patch+json',
      absent: [404],
      signal,
    });
    return data !== undefined;
  }

  /** Events about one object (newest last), for the reason a rollout failed. */
  async events(namespace: string, kind: string, name: string, signal?: AbortSignal): Promise<KubeEvent[]> {
    const call = `list events of ${kind} ${name}`;
    const data = await this.call(call, {
      method: 'GET',
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`,
      query: { fieldSelector: `involvedObject.kind=${kind},involvedObject.name=${name}` },
      absent: [404],
      signal,
    });
    return data === undefined ? [] : this.#checked(call, KubeList(KubeEvent), data).items;
  }

  async nodes(signal?: AbortSignal): Promise<Static<typeof Node>[]> {
    const data = await this.call('list nodes', { method: 'GET', path: '/api/v1/nodes', signal });
    return this.#checked('list nodes', KubeList(Node), data).items;
  }

  close(): void {
    this.#agent?.destroy();
    this.#agent = undefined;
  }

  /** One call: the parsed JSON answer, undefined for an `absent` status. */
  async call(name: string, options: CallOptions): Promise<unknown> {
    if (options.signal?.aborted) {
      throw new InfraError('CANCELLED', `Kubernetes ${name} was not sent: the operation was cancelled`);
    }
    const url = new URL(options.path, this.credentials.server);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.append(key, value);
    }
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'Bosun' };
    const { auth } = this.credentials;
    if (auth.kind === 'token') headers.authorization = `Bearer ${auth.token}`;
    if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    let response: HttpResponse;
    try {
      response = await exchange(
        {
          method: options.method,
          url,
          headers,
          ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
          timeoutMs: this.#limits.timeoutMs,
          maxResponseBytes: this.#limits.maxResponseBytes,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        await this.#agentFor(url),
      );
    } catch (error) {
      throw transportError(name, error);
    }
    if (options.absent?.includes(response.status)) return undefined;
    if (response.status < 200 || response.status >= 300)
      throw statusError(name, response.status, response.body);
    try {
      return JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new InfraError(
        'VIM_OPERATION_FAILED',
        `Kubernetes ${name} answered HTTP ${response.status} with a body that is not JSON; is interfaceInfo.endpoint the API server?`,
        { call: name },
      );
    }
  }

  #checked<T extends TSchema>(call: string, schema: T, data: unknown): Static<T> {
    if (Value.Check(schema, data)) return data;
    const first = Value.Errors(schema, data).First();
    throw new InfraError(
      'VIM_OPERATION_FAILED',
      `Kubernetes ${call} answered an object Bosun cannot read (${first ? `${first.path || '/'}: ${first.message}` : 'unexpected shape'}); is interfaceInfo.endpoint the API server?`,
      { call },
    );
  }

  async #agentFor(url: URL): Promise<HttpAgent> {
    if (this.#agent && this.#addresses) return this.#agent;
    let addresses: string[];
    try {
      addresses = await this.#policy.check(url);
    } catch (error) {
      if (error instanceof OutboundRefusedError) {
        throw new InfraError('INVALID_REQUEST', `Kubernetes API server at ${url.origin}: ${error.message}`);
      }
      if (error instanceof OutboundLookupError) {
        throw new InfraError('VIM_UNAVAILABLE', `Kubernetes API server at ${url.origin}: ${error.message}`);
      }
      throw error;
    }
    const options = { keepAlive: true, maxSockets: 8, lookup: pinnedLookup(addresses) };
    const { ca, auth } = this.credentials;
    this.#agent =
      url.protocol === 'https:'
        ? new HttpsAgent({
            ...options,
            ...(ca ? { ca } : {}),
            ...(auth.kind === 'certificate' ? { cert: auth.cert, key: auth.key } : {}),
          })
        : new HttpAgent(options);
    this.#addresses = addresses;
    return this.#agent;
  }
}

export function kubeClient(vim: VimConnection, policy: OutboundPolicy): KubeClient {
  return new KubeClient(kubeCredentials(vim), policy);
}

/** Runs `work` with a client of `vim`, closing its connections after. */
export async function withKubeClient<T>(
  vim: VimConnection,
  policy: OutboundPolicy,
  work: (client: KubeClient) => Promise<T>,
): Promise<T> {
  const client = kubeClient(vim, policy);
  try {
    return await work(client);
  } finally {
    client.close();
  }
}
