/**
 * The etcd commands the driver runs on the masters, as data, and the reading of their answers.
 * Members are always found by name or peer URL in `member list` (never by an index or an id kept
 * from an earlier run), so a command repeated after a crash finds what the first run did: a
 * removed member is not there to remove again, an added one is not added twice.
 */
import { shellQuote } from '../../ssh/ssh-session.ts';
import { BuiltinDriverError } from '../driver.ts';
import type { NodeShell } from './node-shell.ts';
import type { ClusterSettings } from './params.ts';

export interface EtcdMember {
  /** Hexadecimal, as etcdctl prints and takes it. */
  id: string;
  started: boolean;
  name: string;
  peerUrls: string[];
  clientUrls: string[];
}

const host = (address: string) => (address.includes(':') ? `[${address}]` : address);
export const peerUrl = (s: ClusterSettings, address: string) => `http://${host(address)}:${s.etcd.peerPort}`;
export const clientUrl = (s: ClusterSettings, address: string) =>
  `http://${host(address)}:${s.etcd.clientPort}`;
const ctl = (endpoint: string, timeoutS = 10) =>
  `ETCDCTL_API=3 etcdctl --endpoints=${endpoint} --dial-timeout=1s --command-timeout=${timeoutS}s`;

/**
 * etcd refuses a membership change while the cluster is not yet healthy (a member started or
 * reconnected less than five seconds before, as after the previous heal): the change is tried
 * again while that is the answer, up to a minute; any other answer fails at once.
 */
const whileUnhealthy = (command: string) =>
  [
    `for i in $(seq 1 60); do`,
    `  if out=$(${command} 2>&1); then echo "$out"; exit 0; fi`,
    `  case "$out" in *"unhealthy cluster"*) sleep 1 ;; *) echo "$out" >&2; exit 1 ;; esac`,
    `done`,
    `echo "$out" >&2; exit 1`,
  ].join('\n');

export const etcdCommands = {
  // Short: a member that is down must not hold the search for a healthy one.
  health: (endpoint: string) => `${ctl(endpoint, 3)} endpoint health`,
  memberList: (endpoint: string) => `${ctl(endpoint)} member list -w simple`,
  memberRemove: (endpoint: string, id: string) => whileUnhealthy(`${ctl(endpoint)} member remove ${id}`),
  memberAdd: (endpoint: string, name: string, peer: string) =>
    whileUnhealthy(`${ctl(endpoint)} member add ${name} --peer-urls=${peer}`),
  /**
   * Starts the member `name` in the background unless it already answers, and waits until it is
   * healthy. `fresh` first removes data left by an earlier member of that name (a replaced node's
   * old disk, a member removed since).
   */
  start: (
    s: ClusterSettings,
    m: { name: string; address: string; initialCluster: string; state: 'new' | 'existing'; fresh: boolean },
  ) => {
    const dir = shellQuote(`${s.etcd.dataDir}/${m.name}`);
    const client = clientUrl(s, m.address);
    const peer = peerUrl(s, m.address);
    return [
      `if ${etcdCommands.health(client)} >/dev/null 2>&1; then echo "etcd ${m.name} is already running"; exit 0; fi`,
      `mkdir -p ${shellQuote(s.etcd.dataDir)}`,
      ...(m.fresh ? [`rm -rf ${dir}`] : []),
      `setsid etcd --name ${m.name} --data-dir ${dir} --listen-peer-urls ${peer} --initial-advertise-peer-urls ${peer} --listen-client-urls ${client} --advertise-client-urls ${client} --initial-cluster ${shellQuote(m.initialCluster)} --initial-cluster-state ${m.state} >>${dir}.log 2>&1 </dev/null &`,
      `echo $! >${dir}.pid`,
      `for i in $(seq 1 150); do if ${etcdCommands.health(client)} >/dev/null 2>&1; then echo "etcd ${m.name} started"; exit 0; fi; kill -0 $(cat ${dir}.pid) 2>/dev/null || break; sleep 0.2; done`,
      `echo "etcd ${m.name} did not become healthy:" >&2; tail -n 20 ${dir}.log >&2; exit 1`,
    ].join('\n');
  },
};

/** `member list -w simple`: `8e9e05c52164694d, started, master-1, http://…:2380, http://…:2379, false`. */
export function parseMembers(stdout: string): EtcdMember[] {
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const [id = '', status = '', name = '', peers = '', clients = ''] = line
        .split(',')
        .map((f) => f.trim());
      if (!/^[0-9a-f]{1,16}$/.test(id))
        throw new BuiltinDriverError(
          `etcdctl member list printed a line Bosun cannot read: ${line.slice(0, 200)}`,
        );
      const urls = (f: string) => f.split(/\s+|;/).filter((u) => u.startsWith('http'));
      return { id, started: status === 'started', name, peerUrls: urls(peers), clientUrls: urls(clients) };
    });
}

export async function listMembers(shell: NodeShell, endpoint: string): Promise<EtcdMember[]> {
  return parseMembers((await shell.run(etcdCommands.memberList(endpoint))).stdout);
}

/** Whether the member at `endpoint` answers as healthy (checked, never failing). */
export async function isHealthy(shell: NodeShell, endpoint: string): Promise<boolean> {
  return (await shell.run(etcdCommands.health(endpoint), { allowFailure: true })).exitCode === 0;
}

/** The members that are `name` or listen on `peer`: the ones a removal takes out. */
export const membersOf = (members: EtcdMember[], name: string, peer: string) =>
  members.filter((m) => m.name === name || m.peerUrls.includes(peer));

/** `--initial-cluster` for a member joining: every started member and the joining one. */
export function initialCluster(members: EtcdMember[], joining: { name: string; peer: string }): string {
  const others = members.filter((m) => !m.peerUrls.includes(joining.peer));
  const stray = others.find((m) => !m.started);
  if (stray)
    throw new BuiltinDriverError(
      `etcd has a member that never started (id ${stray.id}, peer ${stray.peerUrls.join(' ')}) besides ${joining.name}: an earlier join did not complete. Remove it (etcdctl member remove ${stray.id}) or heal that node first.`,
    );
  return [...others.map((m) => `${m.name}=${m.peerUrls[0]}`), `${joining.name}=${joining.peer}`].join(',');
}
