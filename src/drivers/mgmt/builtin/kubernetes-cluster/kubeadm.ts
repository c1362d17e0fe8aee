/**
 * The kubeadm and kubectl commands the driver runs, as data, and the reading of their answers.
 * What a node prints (a join command, a certificate key, a kubeconfig) is checked against the
 * shape the real tools print before any of it is put in another command: a node's output is not
 * trusted to be only a token.
 */
import { BuiltinDriverError } from '../driver.ts';
import type { NodeShell } from './node-shell.ts';
import type { ClusterSettings } from './params.ts';

export interface JoinSecrets {
  token: string;
  caCertHash: string;
}

const hostPort = (address: string, port: number) =>
  `${address.includes(':') ? `[${address}]` : address}:${port}`;
export const clusterEndpoint = (s: ClusterSettings) => hostPort(s.haproxy.address, s.haproxy.frontendPort);

export const kubeadmCommands = {
  init: (s: ClusterSettings, name: string, address: string) =>
    `kubeadm init --control-plane-endpoint ${clusterEndpoint(s)} --apiserver-advertise-address ${address} --apiserver-bind-port ${s.haproxy.apiPort} --node-name ${name} --pod-network-cidr ${s.master.podCidr} --service-cidr ${s.master.serviceCidr} --upload-certs`,
  tokenCreate: () => 'kubeadm token create --print-join-command',
  uploadCerts: () => 'kubeadm init phase upload-certs --upload-certs',
  joinWorker: (s: ClusterSettings, j: JoinSecrets, name: string) =>
    `kubeadm join ${clusterEndpoint(s)} --token ${j.token} --discovery-token-ca-cert-hash ${j.caCertHash} --node-name ${name}`,
  joinMaster: (s: ClusterSettings, j: JoinSecrets, certificateKey: string, name: string, address: string) =>
    `kubeadm join ${clusterEndpoint(s)} --token ${j.token} --discovery-token-ca-cert-hash ${j.caCertHash} --control-plane --certificate-key ${certificateKey} --apiserver-advertise-address ${address} --apiserver-bind-port ${s.haproxy.apiPort} --node-name ${name}`,
  nodes: () => 'kubectl get nodes -o name',
  drain: (s: ClusterSettings, name: string) =>
    `kubectl drain ${name} --ignore-daemonsets --delete-emptydir-data --timeout=${s.drainTimeoutS}s`,
  deleteNode: (name: string) => `kubectl delete node ${name}`,
  kubeconfig: () => 'kubectl config view --raw',
};

const TOKEN = /--token\s+([a-z0-9]{6}\.[a-z0-9]{16})(\s|$)/;
const HASH = /--discovery-token-ca-cert-hash\s+(sha256:[0-9a-f]{64})(\s|$)/;

/** `kubeadm token create --print-join-command` → its token and CA certificate hash. */
export function parseJoinCommand(stdout: string, where: string): JoinSecrets {
  const token = TOKEN.exec(stdout)?.[1];
  const caCertHash = HASH.exec(stdout)?.[1];
  if (!token || !caCertHash)
    throw new BuiltinDriverError(
      `${where}: "kubeadm token create --print-join-command" did not print a join command with a token and a sha256 CA certificate hash.`,
    );
  return { token, caCertHash };
}

/** `kubeadm init phase upload-certs --upload-certs` → the certificate key (its last line, 64 hex digits). */
export function parseCertificateKey(stdout: string, where: string): string {
  const last = stdout.trim().split('\n').at(-1)?.trim() ?? '';
  if (!/^[0-9a-f]{64}$/.test(last))
    throw new BuiltinDriverError(
      `${where}: "kubeadm init phase upload-certs --upload-certs" did not end with a certificate key.`,
    );
  return last;
}

/** `kubectl get nodes -o name` → node names. */
export async function nodeNames(shell: NodeShell): Promise<Set<string>> {
  const out = (await shell.run(kubeadmCommands.nodes())).stdout;
  return new Set(
    out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('node/'))
      .map((l) => l.slice('node/'.length)),
  );
}

/** A fresh token and the CA hash, from a master. */
export async function joinSecrets(shell: NodeShell): Promise<JoinSecrets> {
  return parseJoinCommand(
    (await shell.run(kubeadmCommands.tokenCreate(), { secretOutput: true })).stdout,
    shell.label,
  );
}

export async function certificateKey(shell: NodeShell): Promise<string> {
  return parseCertificateKey(
    (await shell.run(kubeadmCommands.uploadCerts(), { secretOutput: true })).stdout,
    shell.label,
  );
}

/** Drains (bounded by drain_timeout) and deletes a node the cluster still lists. */
export async function removeNode(
  shell: NodeShell,
  s: ClusterSettings,
  name: string,
  drain: boolean,
): Promise<void> {
  if (!(await nodeNames(shell)).has(name)) return;
  if (drain) await shell.run(kubeadmCommands.drain(s, name));
  await shell.run(kubeadmCommands.deleteNode(name));
}

/** The cluster's kubeconfig, as the master's kubectl has it. */
export async function readKubeconfig(shell: NodeShell): Promise<string> {
  const text = (await shell.run(kubeadmCommands.kubeconfig(), { secretOutput: true })).stdout;
  if (!/^apiVersion:\s*v1\s*$/m.test(text) || !/^kind:\s*Config\s*$/m.test(text) || text.length > 64 * 1024)
    throw new BuiltinDriverError(`${shell.label}: "kubectl config view --raw" did not print a kubeconfig.`);
  return text;
}
