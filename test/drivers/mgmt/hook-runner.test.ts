/**
 * The hook runner on its own, with real scripts in a real package zip and the real sandbox
 * (bwrap): the script sees only the contract's environment and its own read-only folder; the
 * limits (CPU time, file size, processes, output) and the contract's answer checks end a hook
 * with an error that says which; the policy refuses what the operator did not allow, naming the
 * artifact's digest; a host without bwrap gets an error naming what it needs, never an
 * unsandboxed run.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { HOOK_CONTRACT_VERSION, type HookInput } from '../../../src/drivers/mgmt/hook-contract.ts';
import { HookError, HookRunner, type HookSettings } from '../../../src/drivers/mgmt/hook-runner.ts';
import type { BlobStore } from '../../../src/store/blobs/blob-store.ts';
import type { Flavour } from '../../../src/vnfd/model/vnfd.ts';
import { tempDir } from '../../support/temp.ts';
import { writeZip } from '../../support/zip-fixtures.ts';

const SCRIPTS: Record<string, string> = {
  'Scripts/env.py': `import json, os, sys
json.load(sys.stdin)
print(json.dumps({'vnfInstance': {'metadata': {'env': dict(os.environ), 'cwd': os.getcwd(), 'uid': os.getuid(),
  'hookDir': sorted(os.listdir(os.environ['BOSUN_HOOK_DIR'])),
  'hookDirWritable': os.access(os.environ['BOSUN_HOOK_DIR'], os.W_OK)}}}))
`,
  'Scripts/fill.py': `import errno, json, os
def fill(folder):
    n = 0
    try:
        while n < 100:
            with open(os.path.join(folder, 'f%d' % n), 'wb') as f:
                f.write(b'x' * 1000000)
            n += 1
    except OSError as e:
        return [n, errno.errorcode[e.errno]]
    return [n, None]
print(json.dumps({'vnfInstance': {'metadata': {d: fill(d) for d in ['/tmp', '/dev/shm', '/', '/dev', '/opt', '/hook']}}}))
`,
  'Scripts/linger.sh':
    "setsid sleep 86399.25 >/dev/null 2>&1 &\nsleep 86399.5 >/dev/null 2>&1 &\necho '{}'\n",
  'Scripts/syscalls.py': `import ctypes, json
libc = ctypes.CDLL(None, use_errno=True)
NUMBERS = {
    'x86_64': {'io_uring_setup': 425, 'keyctl': 250, 'add_key': 248, 'bpf': 321, 'perf_event_open': 298, 'userfaultfd': 323},
    'aarch64': {'io_uring_setup': 425, 'keyctl': 219, 'add_key': 217, 'bpf': 280, 'perf_event_open': 241, 'userfaultfd': 282},
}[__import__('os').uname().machine]
def call(nr):
    ctypes.set_errno(0)
    r = libc.syscall(nr, 0, 0, 0, 0, 0)
    return 'ok' if r >= 0 else __import__('errno').errorcode[ctypes.get_errno()]
print(json.dumps({'vnfInstance': {'metadata': {n: call(nr) for n, nr in NUMBERS.items()}}}))
`,
  'Scripts/spin.py': 'while True:\n    pass\n',
  'Scripts/bigfile.sh': "set -e\nhead -c 3000000 /dev/zero > /tmp/big && echo '{}'\n",
  'Scripts/forks.sh': "for i in $(seq 1 40); do sleep 5 & done; wait; echo '{}'\n",
  'Scripts/chatty.py': "import sys\nsys.stdout.write('x' * 5000000)\n",
  'Scripts/typo.py': 'print(\'{"vnfinstance": {"metadata": {"a": 1}}}\')\n',
  'Scripts/deep.py': "print('{\"vnfInstance\": {\"metadata\": {\"a\": ' + '[' * 100 + ']' * 100 + '}}}')\n",
  'Scripts/node.js':
    "process.stdin.resume(); process.stdin.on('end', () => console.log(JSON.stringify({vnfInstance: {metadata: {node: process.version}}})));\n",
};

const TYPES: Record<string, string> = {
  '.py': 'tosca.artifacts.Implementation.Python',
  '.sh': 'tosca.artifacts.Implementation.Shell',
  '.js': 'tosca.artifacts.Implementation',
};

const LIMITS = { cpuSeconds: 1, memoryMb: 2048, processes: 16, fileSizeMb: 1, tmpMb: 16 };

const flavour = {
  flavourId: 'simple',
  lcmOperations: Object.keys(SCRIPTS).map((path) => ({
    name: path.split('/')[1],
    node: 'VNF',
    artifact: {
      name: path,
      type: TYPES[path.slice(path.lastIndexOf('.'))],
      path,
    },
  })),
} as unknown as Flavour;

const input = {
  contractVersion: HOOK_CONTRACT_VERSION,
  operation: 'instantiate_start',
} as unknown as HookInput;

let zip: string;
const blobs = { localFile: async () => zip } as unknown as BlobStore;

function runner(over: Partial<HookSettings> = {}, sandbox: Partial<HookSettings['sandbox']> = {}) {
  return new HookRunner({
    blobs,
    settings: {
      policy: 'sandboxed',
      allowList: [],
      timeoutMs: 20_000,
      outputBytes: 1 << 20,
      ...over,
      sandbox: { network: 'none', uid: 65534, gid: 65534, limits: LIMITS, ...sandbox },
    },
  });
}

const run = (r: HookRunner, hook: string) =>
  r.run({ hook, flavour, vnfPkgId: 'p', input, signal: new AbortController().signal });

async function failure(promise: Promise<unknown>): Promise<HookError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof HookError, `expected a HookError, got ${String(err)}`);
  return err;
}

describe('hook runner and sandbox', () => {
  before(async () => {
    zip = join(tempDir('bosun-hook-runner-'), 'package.zip');
    await writeZip(
      zip,
      Object.entries(SCRIPTS).map(([name, data]) => ({ name, data })),
    );
  });

  test('a hook sees only the contract environment, /tmp as its folder and its own read-only folder', async () => {
    const outcome = await run(runner(), 'env.py');
    assert.ok(outcome.ran);
    const seen = outcome.output.vnfInstance?.metadata as Record<string, unknown>;
    assert.deepEqual(seen.env, {
      PATH: '/opt/bosun/bin:/usr/local/bin:/usr/bin:/bin',
      HOME: '/tmp',
      TMPDIR: '/tmp',
      LANG: 'C.UTF-8',
      BOSUN_HOOK: 'env.py',
      BOSUN_HOOK_CONTRACT_VERSION: HOOK_CONTRACT_VERSION,
      BOSUN_HOOK_DIR: '/hook',
      PWD: '/tmp',
    });
    assert.equal(seen.cwd, '/tmp');
    assert.equal(seen.uid, 65534);
    assert.deepEqual(seen.hookDir, ['env.py']);
    assert.equal(seen.hookDirWritable, false);
  });

  test('only the private /tmp and /dev/shm take writes, each as much as hooks.limits.tmpMb', async () => {
    const outcome = await run(runner(), 'fill.py');
    assert.ok(outcome.ran);
    assert.deepEqual(outcome.output.vnfInstance?.metadata, {
      '/tmp': [16, 'ENOSPC'],
      '/dev/shm': [16, 'ENOSPC'],
      '/': [0, 'EROFS'],
      '/dev': [0, 'EROFS'],
      '/opt': [0, 'EROFS'],
      '/hook': [0, 'EROFS'],
    });
  });

  test('nothing a hook started outlives it, not even a process in a session of its own', async () => {
    // Its processes still in the process table once it ended (the kernel may take a moment to
    // finish them) must be dead already: SIGKILL pending, or exited.
    const alive = () =>
      readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .filter((pid) => {
          try {
            if (!/sleep\0?86399\.(25|5)/.test(readFileSync(`/proc/${pid}/cmdline`, 'latin1'))) return false;
            const status = readFileSync(`/proc/${pid}/status`, 'utf8');
            const killed = /^(SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm;
            const pending = [...status.matchAll(killed)].some((m) => (BigInt(`0x${m[2]}`) & 0x100n) !== 0n);
            return !pending && !/^State:\s*[ZX]/m.test(status);
          } catch {
            return false; // gone meanwhile
          }
        });
    assert.ok((await run(runner(), 'linger.sh')).ran);
    assert.deepEqual(alive(), []);
  });

  test('the kernel interfaces the seccomp filter closes answer EPERM', async () => {
    const outcome = await run(runner(), 'syscalls.py');
    assert.ok(outcome.ran);
    assert.deepEqual(outcome.output.vnfInstance?.metadata, {
      io_uring_setup: 'EPERM',
      keyctl: 'EPERM',
      add_key: 'EPERM',
      bpf: 'EPERM',
      perf_event_open: 'EPERM',
      userfaultfd: 'EPERM',
    });
  });

  test('JavaScript hooks run with Bosun’s own Node.js inside the sandbox', async () => {
    const outcome = await run(runner(), 'node.js');
    assert.ok(outcome.ran);
    assert.equal(outcome.output.vnfInstance?.metadata?.node, process.version);
  });

  test('the limits end a hook and say which one', async () => {
    const r = runner();
    assert.match(
      (await failure(run(r, 'spin.py'))).message,
      /spin\.py .*used up its CPU time \(hooks\.limits\.cpuSeconds\)/,
    );
    assert.match(
      (await failure(run(r, 'bigfile.sh'))).message,
      /wrote a file larger than hooks\.limits\.fileSizeMb/,
    );
    const forks = await failure(run(r, 'forks.sh'));
    assert.match(forks.message, /Cannot fork|Resource temporarily unavailable/);
    const chatty = await failure(run(runner({ outputBytes: 4096 }), 'chatty.py'));
    assert.match(chatty.message, /wrote more than 4096 bytes on stdout \(hooks\.limits\.outputBytes\)/);
  });

  test('an answer outside the contract fails the hook with the path of the problem', async () => {
    const typo = await failure(run(runner(), 'typo.py'));
    assert.match(typo.message, /does not follow the hook contract \(\/vnfinstance: Unexpected property/);
    const deep = await failure(run(runner(), 'deep.py'));
    assert.match(deep.message, /nests deeper than 32 levels/);
  });

  test('allow-list runs only listed digests and names the digest of the others; disabled runs nothing', async () => {
    const digest = createHash('sha256').update(SCRIPTS['Scripts/env.py']).digest('hex');
    const refused = await failure(
      run(runner({ policy: 'allow-list', allowList: ['0'.repeat(64)] }), 'env.py'),
    );
    assert.match(
      refused.message,
      new RegExp(
        `Scripts/env\\.py\\) is not allowed to run: its SHA-256 ${digest} is not in hooks\\.allowList`,
      ),
    );
    assert.equal(refused.facts.sha256, digest);
    assert.ok((await run(runner({ policy: 'allow-list', allowList: [digest] }), 'env.py')).ran);
    const disabled = await failure(run(runner({ policy: 'disabled' }), 'env.py'));
    assert.match(disabled.message, /is not run: hooks\.policy is disabled/);
  });

  test('without bwrap a hook fails with what the host needs; it never runs unsandboxed', async () => {
    const r = runner({}, { bwrap: '/nonexistent/bwrap' });
    const check = await r.checkSandbox();
    assert.equal(check.ok, false);
    const err = await failure(run(r, 'env.py'));
    assert.match(
      err.message,
      /env\.py \(Scripts\/env\.py\) cannot run: Hooks run in a bubblewrap sandbox: the host needs bwrap \(Debian: apt-get install bubblewrap\).*bwrap is not installed/,
    );
  });

  test('a host where bwrap cannot make namespaces: the hook fails with bwrap’s own words and what the host needs', async () => {
    // What bwrap says where user namespaces are off (a kernel or container setting).
    const dir = tempDir('bosun-no-userns-');
    chmodSync(dir, 0o755);
    const bwrap = join(dir, 'bwrap');
    writeFileSync(bwrap, "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n", {
      mode: 0o755,
    });
    const err = await failure(run(runner({}, { bwrap }), 'env.py'));
    assert.match(
      err.message,
      /cannot run: Hooks run in a bubblewrap sandbox: .*unprivileged user namespaces \(sysctl kernel\.unprivileged_userns_clone=1.*bwrap failed \(exit 1\): bwrap: No permissions to creating new namespace/,
    );
  });
});
