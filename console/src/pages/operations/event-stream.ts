/**
 * Follows a server-sent events stream with fetch rather than EventSource: EventSource cannot send
 * the Authorization header the API needs. Parses the text/event-stream framing (id, event, data
 * lines; comments are heartbeats), and after a dropped connection resumes with Last-Event-ID so
 * no event is lost or shown twice. The server ends the stream once the operation is final.
 */

export interface StreamEvent {
  id?: string;
  event: string;
  data: string;
}

export interface FollowOptions {
  /** The caller's authenticated fetch (it adds the token). */
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  onEvent: (event: StreamEvent) => void;
  /** A failure the caller shows; `final` when the stream stops (refused), else it reconnects. */
  onError?: (message: string, final: boolean) => void;
  signal: AbortSignal;
  /** Wait before reconnecting after a dropped connection. */
  retryMs?: number;
  /** Resume after this event id (what the caller has already shown). */
  after?: string | number;
}

/** An answer that will not change by asking again (404, 403): the stream stops. */
class Refused extends Error {}

/** Splits a stream's text into events; returns what is left of an unfinished event. */
export function parseEvents(buffer: string, emit: (event: StreamEvent) => void): string {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const event: StreamEvent = { event: 'message', data: '' };
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
    }
    if (data.length === 0 && event.id === undefined) continue;
    event.data = data.join('\n');
    emit(event);
  }
  return rest;
}

/** Resolves when the server ends the stream or the signal aborts. */
export async function followEvents(url: string, options: FollowOptions): Promise<void> {
  let lastId = options.after === undefined ? undefined : String(options.after);
  const { signal } = options;
  while (!signal.aborted) {
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (lastId !== undefined) headers['Last-Event-ID'] = lastId;
      const response = await options.fetch(url, { headers, signal });
      if (!response.ok || !response.body) {
        const detail = await detailOf(response);
        if (response.status >= 400 && response.status < 500) throw new Refused(detail);
        throw new Error(detail);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer = parseEvents(buffer + value, (event) => {
          if (event.id !== undefined) lastId = event.id;
          options.onEvent(event);
        });
      }
    } catch (error) {
      if (signal.aborted) return;
      const final = error instanceof Refused;
      options.onError?.(error instanceof Error ? error.message : String(error), final);
      if (final) return;
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 2000));
    }
  }
}

/** The ProblemDetails detail of a refused stream, or its status. */
async function detailOf(response: Response): Promise<string> {
  try {
    const problem = (await response.json()) as { detail?: unknown };
    if (typeof problem.detail === 'string') return problem.detail;
  } catch {
    // Not a ProblemDetails.
  }
  return `The event stream answered HTTP ${response.status}.`;
}
