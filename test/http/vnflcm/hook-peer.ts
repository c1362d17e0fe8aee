/**
 * What test hooks talk to: a small HTTP endpoint on loopback standing for the VNF a management
 * driver configures. Sandboxed hooks cannot write the test's files, so they report here over the
 * network (as a real one would reach its VNF): `POST /calls/<key>` records what a hook saw, `GET
 * /fixed/<key>` says whether the test has "repaired" the VNF (for retry scenarios).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HookPeer {
  url: string;
  /** What the hooks of one scenario reported, in order. */
  calls(key: string): Record<string, unknown>[];
  fix(key: string): void;
  close(): Promise<void>;
}

/** The Python a hook script uses to report (needs `json`, `urllib.request`; `peer` from its parameters). */
export const PEER_PY = `def peer_call(p, path, body=None):
    import urllib.request
    req = urllib.request.Request(p['peer'] + path, method='GET' if body is None else 'POST',
        data=None if body is None else json.dumps(body).encode(), headers={'content-type': 'application/json'})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.read().decode()
`;

export async function startHookPeer(): Promise<HookPeer> {
  const calls = new Map<string, Record<string, unknown>[]>();
  const fixed = new Set<string>();
  const server = createServer((req, res) => {
    const [, kind, key] = (req.url ?? '').split('/');
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      if (req.method === 'POST' && kind === 'calls') {
        calls.set(key, [...(calls.get(key) ?? []), JSON.parse(body) as Record<string, unknown>]);
        res.end('ok');
      } else if (kind === 'fixed') res.end(fixed.has(key) ? 'yes' : 'no');
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: (key) => calls.get(key) ?? [],
    fix: (key) => fixed.add(key),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
