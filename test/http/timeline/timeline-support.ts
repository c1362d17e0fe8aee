/**
 * Reading op occ timelines in tests: the JSON timeline, and the SSE stream read to its end over
 * real HTTP (with the CLI's own SSE parser), its messages and what they carry.
 */
import assert from 'node:assert/strict';
import { type SseMessage, sseMessages } from '../../../src/cli/api-client/sse.ts';
import type { OpEvent } from '../../../src/lcm/timeline/event.ts';
import { http } from '../../support/http.ts';

export const TIMELINE = '/bosun/v1/vnf_lcm_op_occs';

export interface TimelineBody {
  vnfLcmOpOccId: string;
  operation: string;
  operationState: string;
  events: OpEvent[];
  more: boolean;
}

export async function timeline(base: string, id: string, headers: Record<string, string> = {}) {
  const res = await http<TimelineBody>(base, 'GET', `${TIMELINE}/${id}/timeline`, { headers });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

export interface StreamRead {
  status: number;
  contentType: string;
  messages: SseMessage[];
  /** The timeline events the stream sent (its default messages). */
  events: OpEvent[];
  /** The `end` message's data, when the stream ended with one. */
  end?: { operationState: string };
  /** The comments (heartbeats, why it closed), in the raw text. */
  raw: string;
}

/** Opens the stream and reads it until the server ends it (or `stop` says enough, or `timeoutMs`). */
export async function readStream(
  base: string,
  id: string,
  options: {
    headers?: Record<string, string>;
    stop?: (read: StreamRead) => boolean;
    /** Called with each timeline event as it arrives (awaited before the next is read). */
    onEvent?: (event: OpEvent) => Promise<void> | void;
    timeoutMs?: number;
    signal?: AbortSignal;
  } = {},
): Promise<StreamRead> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 30000);
  options.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  const res = await fetch(`${base}${TIMELINE}/${id}/events`, {
    headers: { accept: 'text/event-stream', ...options.headers },
    signal: abort.signal,
  });
  const read: StreamRead = {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    messages: [],
    events: [],
    raw: '',
  };
  if (!res.ok || !res.body) {
    read.raw = await res.text();
    clearTimeout(timer);
    return read;
  }
  const decoder = new TextDecoder();
  async function* tee(body: AsyncIterable<Uint8Array>) {
    for await (const chunk of body) {
      read.raw += decoder.decode(chunk, { stream: true });
      yield chunk;
    }
  }
  try {
    for await (const message of sseMessages(tee(res.body))) {
      read.messages.push(message);
      if (message.event === 'message') {
        const event = JSON.parse(message.data) as OpEvent;
        read.events.push(event);
        await options.onEvent?.(event);
      }
      if (message.event === 'end') read.end = JSON.parse(message.data);
      if (options.stop?.(read)) break;
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return read;
}

/** An event in a few words, to compare sequences: `state PROCESSING`, `step infra finished`, … */
export function brief(e: OpEvent): string {
  switch (e.kind) {
    case 'state':
      return `state ${e.state}`;
    case 'step':
      return `step ${e.step}${e.hook ? ` (${e.hook})` : ''} ${e.status}`;
    case 'driver':
      return `driver ${e.hook} ${e.phase} ${e.status}`;
    case 'output':
      return `output ${e.stream} ${e.line}`;
    case 'placement':
      return `placement ${e.zone}${e.stopped ? ' stopped' : ` → ${e.next.map((n) => n.zone).join(',')}`}`;
    case 'error':
      return 'error';
    case 'truncated':
      return 'truncated';
  }
}
