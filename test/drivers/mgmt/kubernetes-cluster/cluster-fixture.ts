/**
 * The real parts of a Kubernetes-cluster VNF for the driver's tests: one sshd per node on its own
 * loopback address (three masters, three workers — one kept for a scale out — and the HAProxy
 * node), a real HAProxy on the HAProxy node's address with its runtime API socket, and the
 * folders etcd keeps its data in (the driver starts the real `etcd` members on the masters over
 * SSH). Each node's PATH has the test's kubeadm and kubectl (fake-kube-tools.ts) and recording
 * wrappers of etcd, etcdctl and socat, so that `calls()` gives every command run on any node, in
 * order. Everything it starts is stopped by PID.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../../support/ports.ts';
import { loopbackAddress, type Sshd, startSshd } from '../../../support/sshd.ts';
import { tempDir } from '../../../support/temp.ts';
import { writeKubeTools } from './fake-kube-tools.ts';

/** Wrappers that record a call of a real tool (with socat, the runtime API command on its stdin) and run it. */
const WRAPPERS: Record<string, string> = {
  etcd: `#!/bin/sh\necho "$BOSUN_TEST_NODE etcd $*" >>"$K8S_TEST_STATE/calls.log"\nexec /usr/bin/etcd "$@"\n`,
  etcdctl: `#!/bin/sh\necho "$BOSUN_TEST_NODE etcdctl $*" >>"$K8S_TEST_STATE/calls.log"\nexec /usr/bin/etcdctl "$@"\n`,
  socat: `#!/bin/sh\nin=$(cat)\necho "$BOSUN_TEST_NODE socat $in" >>"$K8S_TEST_STATE/calls.log"\necho "$in" | exec /usr/bin/socat "$@"\n`,
};

export interface ClusterFixture {
  port: number;
  masters: Sshd[];
  workers: Sshd[];
  lb: Sshd;
  etcdDir: string;
  clientPort: number;
  peerPort: number;
  frontendPort: number;
  socket: string;
  /** Short names of the nodes by address (m0…, w0…, lb) for the calls. */
  short(address: string): string;
  /** The commands run on the nodes since the last reset, `m0 etcdctl member list -w simple`… */
  calls(): string[];
  resetCalls(): void;
  /** A call whose `tool args` contain `pattern` fails once, after `skip` such calls passed. */
  failNext(pattern: string, skip?: number): void;
  /** The VM of `node` replaced: its etcd killed (-9), its data gone, a new host key. */
  replaceVm(node: Sshd): Promise<void>;
  /** Every VM replaced and the cluster's state gone (a whole-VNF heal's new VMs). */
  replaceAll(): Promise<void>;
  etcdctl(...args: string[]): string;
  /** etcd's members as `<id> <name> <started|unstarted>`, sorted by name. */
  members(): { id: string; name: string; status: string }[];
  haproxy(command: string): string;
  /** The backend's servers as `m0 READY` / `m1 MAINT`, sorted. */
  servers(): string[];
  stop(): Promise<void>;
}

export async function startCluster(): Promise<ClusterFixture> {
  const dir = tempDir('bosun-k8s-cluster-');
  chmodSync(dir, 0o755);
  const state = join(dir, 'state');
  const etcdDir = join(dir, 'etcd');
  for (const d of [state, etcdDir]) {
    mkdirSync(d);
    chmodSync(d, 0o777);
  }
  const bin = writeKubeTools(dir);
  for (const [name, text] of Object.entries(WRAPPERS)) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  const port = await freePort();
  const [clientPort, peerPort, frontendPort] = [await freePort(), await freePort(), await freePort()];
  const names = new Map<string, string>();
  const node = async (short: string) => {
    const host = loopbackAddress();
    names.set(host, short);
    return startSshd({
      host,
      port,
      env: {
        PATH: `${bin}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`,
        K8S_TEST_STATE: state,
        BOSUN_TEST_NODE: host,
      },
    });
  };
  const masters = [await node('m0'), await node('m1'), await node('m2')];
  const workers = [await node('w0'), await node('w1'), await node('w2')];
  const lb = await node('lb');
  const socket = join(dir, 'haproxy.sock');
  writeFileSync(
    join(dir, 'haproxy.cfg'),
    [
      'global',
      `  stats socket ${socket} mode 666 level admin`,
      'defaults',
      '  mode tcp',
      '  timeout connect 1s',
      '  timeout client 5s',
      '  timeout server 5s',
      'frontend kubernetes',
      `  bind ${lb.host}:${frontendPort}`,
      '  default_backend k8s-masters',
      'backend k8s-masters',
      '  balance roundrobin',
      '',
    ].join('\n'),
  );
  const haproxyProcess: ChildProcess = spawn('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  for (let i = 0; i < 100 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(socket)) throw new Error('HAProxy did not open its runtime API socket');

  const killEtcd = (name?: string) => {
    for (const file of readdirSync(etcdDir).filter((f) => f.endsWith('.pid'))) {
      if (name && file !== `${name}.pid`) continue;
      const pid = Number(readFileSync(join(etcdDir, file), 'utf8'));
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      rmSync(join(etcdDir, file.replace(/\.pid$/, '')), { recursive: true, force: true });
      rmSync(join(etcdDir, file), { force: true });
    }
  };
  const memberName = (n: Sshd) =>
    `${masters.includes(n) ? 'master' : 'worker'}-${n.host.replaceAll('.', '-')}`;
  const etcdctl = (...args: string[]) =>
    execFileSync(
      'etcdctl',
      [`--endpoints=${masters.map((m) => `http://${m.host}:${clientPort}`).join(',')}`, ...args],
      { env: { ...process.env, ETCDCTL_API: '3' } },
    ).toString();
  const haproxy = (command: string) =>
    execFileSync('socat', ['stdio', `unix-connect:${socket}`], { input: `${command}\n` }).toString();
  const members = () =>
    etcdctl('member', 'list', '-w', 'simple')
      .trim()
      .split('\n')
      .map((l) => l.split(', '))
      .map(([id = '', status = '', name = '']) => ({ id, name, status }))
      .sort((a, b) => a.name.localeCompare(b.name));
  const servers = () =>
    haproxy('show servers state k8s-masters')
      .split('\n')
      .filter((l) => /^\d+ k8s-masters /.test(l))
      .map((l) => l.split(' '))
      .map((f) => `${names.get(f[4] ?? '') ?? f[4]} ${(Number(f[6]) & 1) === 1 ? 'MAINT' : 'READY'}`)
      .sort();
  const calls = join(state, 'calls.log');
  return {
    port,
    masters,
    workers,
    lb,
    etcdDir,
    clientPort,
    peerPort,
    frontendPort,
    socket,
    short: (address) => names.get(address) ?? address,
    calls: () =>
      existsSync(calls)
        ? readFileSync(calls, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => {
              const [address = '', ...rest] = l.split(' ');
              return [names.get(address) ?? address, ...rest].join(' ');
            })
        : [],
    resetCalls: () => rmSync(calls, { force: true }),
    failNext: (pattern, skip = 0) => {
      // The nodes' user empties it once used.
      writeFileSync(join(state, 'fail'), `${pattern}\n${skip}\n`);
      chmodSync(join(state, 'fail'), 0o666);
    },
    async replaceVm(n) {
      killEtcd(memberName(n));
      await n.changeHostKey();
    },
    async replaceAll() {
      killEtcd();
      for (const f of ['nodes', 'tokens', 'endpoint', 'kubeconfig']) rmSync(join(state, f), { force: true });
      for (const n of [...masters, ...workers]) await n.changeHostKey();
    },
    etcdctl,
    members,
    servers,
    haproxy,
    async stop() {
      killEtcd();
      if (haproxyProcess.pid && haproxyProcess.exitCode === null) {
        const exited = new Promise((r) => haproxyProcess.once('exit', r));
        process.kill(haproxyProcess.pid, 'SIGTERM');
        await exited;
      }
      for (const n of [...masters, ...workers, lb]) await n.stop();
    },
  };
}
