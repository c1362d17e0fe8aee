/**
 * The hook tests' package and what its hooks talk to. The package is the main sample with a
 * Python hook script (by default one driven by the request's parameters) behind its Vnflcm
 * operations, the rollback hooks of instantiate and heal_end added. The peer is a small HTTP
 * endpoint on loopback standing for the VNF a management driver configures: sandboxed hooks
 * cannot write the test's files, so they report here over the network (as a real one reaches its
 * VNF): `POST /calls/<key>` records what a hook saw, `GET /fixed/<key>` says whether the test has
 * "repaired" the VNF (for retry scenarios).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAIN_SAMPLE } from './lcm-support.ts';
import { sampleVariant } from './sample-package.ts';

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

/**
 * No shebang: run with python3 by the artifact type. Driven by request.additionalParams (or the
 * PATCH's metadata): reports to the test's peer under `key`, fails, sleeps or answers as asked.
 */
export const TEST_HOOK_SCRIPT = `import json, os, sys, time
${PEER_PY}
data = json.load(sys.stdin)
op = data['operation']
req = data.get('request') or {}
p = req.get('additionalParams') or req.get('metadata') or {}
key = p.get('key')
if key:
    peer_call(p, '/calls/' + key, {'op': op, 'grant': 'grant' in data, 'input': data, 'env': dict(os.environ)})
if op in p.get('failHooks', []) and not (key and peer_call(p, '/fixed/' + key) == 'yes'):
    sys.stderr.write('hook %s failed on purpose\\n' % op)
    sys.exit(3)
if op in p.get('sleepHooks', []):
    time.sleep(p.get('sleepSeconds', 1))
if p.get('badOutput') == op:
    print('this is not JSON')
    sys.exit(0)
answer = (p.get('answers') or {}).get(op)
if answer is not None:
    vnfcs = (data['vnfInstance'].get('instantiatedVnfInfo') or {}).get('vnfcResourceInfo') or []
    print(json.dumps(answer).replace('$VNFC0', vnfcs[0]['id'] if vnfcs else 'none'))
    sys.exit(0)
print(json.dumps({'vnfInstance': {'metadata': {'hook_' + op: data['vnfd']['flavourId'] + '/' + data['vnfInstance']['id']}}}))
`;

const MORE_HOOKS = `          instantiate_rollback_start:
            implementation: sample-script
          instantiate_rollback_end:
            implementation: sample-script
          heal_end:
            implementation: sample-script
`;

const SAMPLE_VNFD_ID = 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21';

/** The main sample with `script` as its hook script (onboardable next to it: a fresh vnfdId). */
export function hookPackage(script = TEST_HOOK_SCRIPT) {
  return sampleVariant(MAIN_SAMPLE, {
    vnfdId: SAMPLE_VNFD_ID,
    files: { 'Scripts/sample_script.py': script },
    edit: {
      'Definitions/v2_sample3_df_simple.yaml': (text) =>
        text.replace(
          '          instantiate_end:\n            implementation: sample-script\n',
          `          instantiate_end:\n            implementation: sample-script\n${MORE_HOOKS}`,
        ),
    },
  });
}
