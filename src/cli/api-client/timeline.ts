/**
 * The op occ timeline of the CLI: the events so far (`GET /bosun/v1/vnf_lcm_op_occs/{id}/timeline`,
 * every page) and following them live through the server-sent events stream (`…/events`),
 * reconnecting with the last event's id when the server ends a stream early (its idle timeout,
 * a restart) so that nothing is printed twice or missed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { OpEvent } from '../../lcm/timeline/event.ts';
import { CliError } from '../output.ts';
import type { ApiClient } from './client.ts';
import { sseMessages } from './sse.ts';

export type { OpEvent };

const BASE = '/bosun/v1/vnf_lcm_op_occs';

interface TimelinePage {
  operationState: string;
  events: OpEvent[];
  more: boolean;
}

/** Every event of the op occ so far. */
export async function fetchTimeline(
  api: ApiClient,
  id: string,
): Promise<{ operationState: string; events: OpEvent[] }> {
  const events: OpEvent[] = [];
  let after = 0;
  for (;;) {
    const page = await api.json<TimelinePage>(
      'GET',
      `${BASE}/${encodeURIComponent(id)}/timeline?after=${after}`,
    );
    events.push(...page.events);
    after = page.events.at(-1)?.seq ?? after;
    if (!page.more || page.events.length === 0) return { operationState: page.operationState, events };
  }
}

/** The number of the op occ's last event (0 with none, or when the server has no timeline). */
export async function lastEventSeq(api: ApiClient, id: string): Promise<number> {
  try {
    return (await fetchTimeline(api, id)).events.at(-1)?.seq ?? 0;
  } catch {
    return 0;
  }
}

/** Thrown when the server serves no event stream (an older Bosun): the caller polls instead. */
export class NoEventStream extends Error {}

/**
 * Calls `onEvent` with each event after `after` as it happens, until the op occ stops running;
 * resolves with its state then. Throws NoEventStream when the first stream cannot be opened.
 */
export async function followTimeline(
  api: ApiClient,
  id: string,
  options: { after?: number; onEvent: (event: OpEvent) => void; signal: AbortSignal },
): Promise<string> {
  let after = options.after ?? 0;
  let opened = false;
  let failures = 0;
  for (;;) {
    let res: Response;
    try {
      res = await api.request('GET', `${BASE}/${encodeURIComponent(id)}/events`, {
        headers: { accept: 'text/event-stream', ...(after ? { 'last-event-id': String(after) } : {}) },
        signal: options.signal,
        allowError: true,
      });
    } catch (err) {
      if (options.signal.aborted) throw err;
      if (!opened) throw new NoEventStream(String(err));
      res = undefined as unknown as Response;
    }
    if (res && !res.ok) {
      await res.body?.cancel();
      if (!opened) throw new NoEventStream(`${res.status}`);
      if (res.status !== 429 && res.status !== 503)
        throw new CliError(`following op occ ${id}: the server answered ${res.status} to its event stream`);
    }
    if (res?.ok && res.body) {
      opened = true;
      failures = 0;
      try {
        for await (const message of sseMessages(res.body)) {
          if (message.event === 'end')
            return (JSON.parse(message.data) as { operationState: string }).operationState;
          if (message.event !== 'message') continue;
          const event = JSON.parse(message.data) as OpEvent;
          if (event.seq <= after) continue;
          after = event.seq;
          options.onEvent(event);
        }
      } catch (err) {
        if (options.signal.aborted) throw err;
      }
    }
    // The stream ended early (idle timeout, a server restarting): resume after the last event.
    failures++;
    await sleep(Math.min(250 * 2 ** Math.min(failures, 4), 4000), undefined, { signal: options.signal });
  }
}
