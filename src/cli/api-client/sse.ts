/**
 * Reading a server-sent events stream (the HTML standard's parsing rules, the parts Bosun's
 * streams use): events are `data:` lines ended by an empty line, with an optional `id:` and
 * `event:` (default `message`); lines starting with `:` are comments (heartbeats).
 */

export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/** The messages of `body` as they arrive; ends when the stream ends. */
export async function* sseMessages(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  let event = 'message';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let at = buffer.search(/\r\n|\n|\r/);
    while (at >= 0) {
      const line = buffer.slice(0, at);
      const breakLength = buffer.startsWith('\r\n', at) ? 2 : 1;
      buffer = buffer.slice(at + breakLength);
      if (line === '') {
        if (data.length) yield { ...(id !== undefined ? { id } : {}), event, data: data.join('\n') };
        data = [];
        id = undefined;
        event = 'message';
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'id') id = value;
        else if (field === 'event') event = value;
      }
      at = buffer.search(/\r\n|\n|\r/);
    }
  }
}
