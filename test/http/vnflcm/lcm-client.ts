/**
 * An LCM client for the tests of one major (its path prefix and Version header): create and show
 * instances, start tasks and follow their op occs to a final (or any wanted) state. The same calls
 * serve /vnflcm/v1 and /vnflcm/v2; only the representation types differ.
 */
import { http } from '../../support/http.ts';

export const FINAL_STATES = ['COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK'];

/** The op occ id at the end of a Location header. */
export const idOf = (location: string | null) =>
  (location ?? '').slice((location ?? '').lastIndexOf('/') + 1);

export function lcmClient<I, O extends { operationState: string; error?: unknown }>(
  prefix: string,
  headers: Record<string, string>,
) {
  async function createInstance(
    base: string,
    vnfdId: string,
    body: Record<string, unknown> = {},
  ): Promise<I> {
    const res = await http<I>(base, 'POST', `${prefix}/vnf_instances`, {
      headers,
      body: { vnfdId, ...body },
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
    return res.body;
  }

  async function getInstance(base: string, id: string): Promise<I> {
    const res = await http<I>(base, 'GET', `${prefix}/vnf_instances/${id}`, { headers });
    if (res.status !== 200) throw new Error(`show instance: ${res.status} ${res.text}`);
    return res.body;
  }

  async function getOpOcc(base: string, id: string): Promise<O> {
    const res = await http<O>(base, 'GET', `${prefix}/vnf_lcm_op_occs/${id}`, { headers });
    if (res.status !== 200) throw new Error(`show op occ: ${res.status} ${res.text}`);
    return res.body;
  }

  /** POSTs a task; returns the op occ id from Location (throws unless 202). */
  async function startTask(
    base: string,
    instanceId: string,
    task: string,
    body: Record<string, unknown>,
  ): Promise<string> {
    const res = await http(base, 'POST', `${prefix}/vnf_instances/${instanceId}/${task}`, { headers, body });
    if (res.status !== 202) throw new Error(`${task}: ${res.status} ${res.text}`);
    return idOf(res.headers.get('location'));
  }

  /** Polls the op occ until it is in one of `states`. */
  async function waitOpOcc(base: string, id: string, states = FINAL_STATES, timeoutMs = 20000): Promise<O> {
    const until = Date.now() + timeoutMs;
    let last: O | undefined;
    while (Date.now() < until) {
      last = await getOpOcc(base, id);
      if (states.includes(last.operationState)) return last;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(
      `op occ ${id} stayed ${last?.operationState} (wanted ${states.join('|')}): ${JSON.stringify(last?.error)}`,
    );
  }

  /** Starts a task and waits for its op occ to end. */
  async function runTask(base: string, instanceId: string, task: string, body: Record<string, unknown>) {
    return waitOpOcc(base, await startTask(base, instanceId, task, body));
  }

  return { createInstance, getInstance, getOpOcc, startTask, waitOpOcc, runTask };
}
