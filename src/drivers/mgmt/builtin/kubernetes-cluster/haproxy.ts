/**
 * The HAProxy runtime API commands the driver sends, as data: each is written to the admin socket
 * on the HAProxy node with socat, and the backend's servers are read (`show servers state`)
 * before any change, so that adding, enabling, disabling or deleting a master's server is done
 * once whatever ran before. Runtime changes are live at once; they are not written to
 * haproxy.cfg.
 */
import { shellQuote } from '../../ssh/ssh-session.ts';
import { BuiltinDriverError } from '../driver.ts';
import type { NodeShell } from './node-shell.ts';
import type { ClusterSettings } from './params.ts';

export interface HaproxyServer {
  name: string;
  address: string;
  /** In maintenance (disabled through the runtime API): out of rotation. */
  maintenance: boolean;
}

const send = (s: ClusterSettings, command: string) =>
  `echo ${shellQuote(command)} | socat stdio ${shellQuote(`unix-connect:${s.haproxy.socket}`)}`;

export const haproxyCommands = {
  show: (s: ClusterSettings) => send(s, `show servers state ${s.haproxy.backend}`),
  add: (s: ClusterSettings, name: string, address: string) =>
    send(
      s,
      `add server ${s.haproxy.backend}/${name} ${address.includes(':') ? `[${address}]` : address}:${s.haproxy.apiPort}`,
    ),
  enable: (s: ClusterSettings, name: string) => send(s, `enable server ${s.haproxy.backend}/${name}`),
  disable: (s: ClusterSettings, name: string) => send(s, `disable server ${s.haproxy.backend}/${name}`),
  del: (s: ClusterSettings, name: string) => send(s, `del server ${s.haproxy.backend}/${name}`),
};

/** `show servers state <backend>`: a version line, a `#` header, then one line per server. */
export function parseServers(stdout: string, backend: string): HaproxyServer[] {
  const lines = stdout.split('\n').map((l) => l.trim());
  const header = lines.find((l) => l.startsWith('#'));
  if (!header)
    throw new BuiltinDriverError(
      `HAProxy answered "show servers state ${backend}" with: ${stdout.trim().slice(0, 300) || '(nothing)'}; check haproxy.backend and haproxy.admin_socket (a stats socket at level admin).`,
    );
  const columns = header.replace(/^#\s*/, '').split(/\s+/);
  const at = (name: string) => columns.indexOf(name);
  return lines
    .filter((l) => l && !l.startsWith('#') && /\s/.test(l))
    .map((l) => l.split(/\s+/))
    .filter((f) => f[at('be_name')] === backend)
    .map((f) => ({
      name: f[at('srv_name')] ?? '',
      address: f[at('srv_addr')] ?? '',
      // srv_admin_state bit 0x01: forced maintenance (disable server).
      maintenance: (Number(f[at('srv_admin_state')]) & 1) === 1,
    }));
}

/** Sends `command`; the runtime API answers errors as text on a successful exit, so any text but `ok` fails. */
async function change(shell: NodeShell, command: string, ok: RegExp): Promise<void> {
  const out = (await shell.run(command)).stdout.trim();
  if (out && !ok.test(out))
    throw new BuiltinDriverError(`${shell.label}: HAProxy refused "${command}": ${out.slice(0, 300)}`, {
      node: shell.label,
      command,
      stdout: out,
    });
}

export async function servers(shell: NodeShell, s: ClusterSettings): Promise<HaproxyServer[]> {
  return parseServers((await shell.run(haproxyCommands.show(s))).stdout, s.haproxy.backend);
}

/** The master's server present and in rotation. */
export async function putInRotation(shell: NodeShell, s: ClusterSettings, name: string, address: string) {
  let found = (await servers(shell, s)).find((x) => x.name === name);
  if (found && found.address !== address) {
    // Same name, another address: the node was re-addressed; its old entry goes.
    await takeOut(shell, s, name, true);
    found = undefined;
  }
  if (!found) await change(shell, haproxyCommands.add(s, name, address), /^New server registered\.?$/);
  if (!found || found.maintenance) await change(shell, haproxyCommands.enable(s, name), /^$/);
}

/** The master's server out of rotation (disabled), or deleted with `remove`. */
export async function takeOut(shell: NodeShell, s: ClusterSettings, name: string, remove = false) {
  const found = (await servers(shell, s)).find((x) => x.name === name);
  if (!found) return;
  if (!found.maintenance) await change(shell, haproxyCommands.disable(s, name), /^$/);
  if (remove) await change(shell, haproxyCommands.del(s, name), /^Server deleted\.?$/);
}
