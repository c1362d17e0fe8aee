/**
 * The notification benchmark's callback receiver, in a process of its own so that it never
 * waits for the benchmark's own work (writing the outbox): a raw node:http server on loopback
 * answering 204 at once on keep-alive connections — or after 5 s for paths under /slow. It
 * counts POSTs per group (the first path segment) with the times of the first and last arrival,
 * and answers `stats` messages with them. Prints its URL on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const SLOW_MS = 5000;

export interface GroupStats {
  count: number;
  /** ms, this process's clock. */
  first: number;
  last: number;
}

const groups = new Map<string, GroupStats>();

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const path = req.url ?? '';
    if (req.method === 'POST') {
      const group = path.slice(1).split('/', 1)[0];
      const now = performance.now();
      const stats = groups.get(group);
      if (stats) {
        stats.count++;
        stats.last = now;
      } else groups.set(group, { count: 1, first: now, last: now });
    }
    if (path.startsWith('/slow')) setTimeout(() => res.writeHead(204).end(), SLOW_MS);
    else res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('message', (message) => {
  if (message === 'stats') process.send?.(Object.fromEntries(groups));
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
