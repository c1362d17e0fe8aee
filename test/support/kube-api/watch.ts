/**
 * Watch streams (`?watch=1`): newline-delimited JSON events (ADDED, MODIFIED, DELETED) from a
 * resourceVersion on, as the real server sends them. Without a resourceVersion (or "0") the
 * current objects come first as ADDED; a resourceVersion older than the kept history gets the
 * real server's ERROR event with a 410 Expired Status. An object that stops matching the
 * selectors is sent as DELETED, one that starts matching as ADDED.
 */
import type { ServerResponse } from 'node:http';
import { apiVersionOf, type Kind } from './kinds.ts';
import { gone } from './status.ts';
import type { Change, Obj, Store } from './store.ts';

export interface WatchRequest {
  kind: Kind;
  namespace?: string;
  matches: (o: Obj) => boolean;
  resourceVersion?: string;
  timeoutSeconds?: number;
  /** sendInitialEvents=true: the current objects, then a BOOKMARK marking their end (watch-list). */
  sendInitialEvents?: boolean;
  /** Each event's object as sent (a Table row, or the object). */
  render: (o: Obj) => Obj;
}

export function serveWatch(
  res: ServerResponse,
  store: Store,
  w: WatchRequest,
  open: Set<ServerResponse>,
): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    'transfer-encoding': 'chunked',
    'cache-control': 'no-cache, private',
  });
  res.flushHeaders();
  open.add(res);
  const send = (type: string, object: Obj) => res.write(`${JSON.stringify({ type, object })}\n`);
  const inScope = (c: Change) =>
    c.kind === w.kind && (!w.kind.namespaced || !w.namespace || c.object.metadata.namespace === w.namespace);
  const deliver = (c: Change) => {
    if (!inScope(c)) return;
    const now = w.matches(c.object);
    const before = c.type === 'MODIFIED' && c.previous ? w.matches(c.previous) : now;
    if (c.type === 'MODIFIED' && now !== before) send(now ? 'ADDED' : 'DELETED', w.render(c.object));
    else if (now) send(c.type, w.render(c.object));
  };
  const finish = () => {
    unsubscribe();
    clearTimeout(timer);
    open.delete(res);
    if (!res.writableEnded) res.end();
  };
  let unsubscribe = () => {};
  const timer = w.timeoutSeconds ? setTimeout(finish, w.timeoutSeconds * 1000) : undefined;
  res.on('close', finish);

  const rv = w.resourceVersion && w.resourceVersion !== '0' ? Number(w.resourceVersion) : undefined;
  if (rv === undefined || w.sendInitialEvents) {
    for (const o of store.list(w.kind, w.namespace)) if (w.matches(o)) send('ADDED', w.render(o));
    if (w.sendInitialEvents) {
      send('BOOKMARK', {
        kind: w.kind.kind,
        apiVersion: apiVersionOf(w.kind),
        metadata: {
          resourceVersion: store.resourceVersion,
          annotations: { 'k8s.io/initial-events-end': 'true' },
        },
      });
    }
  } else {
    const changes = store.changesSince(rv);
    if (!changes) {
      send('ERROR', gone(rv, store.oldestResourceVersion).toStatus());
      finish();
      return;
    }
    for (const c of changes) deliver(c);
  }
  unsubscribe = store.onChange(deliver);
}
