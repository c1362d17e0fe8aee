/**
 * Runs the helm binary (kubernetes.helmPath) for one call against a VIM: argument arrays, never a
 * shell; a kubeconfig written 0600 in a private temp folder from the VIM's credentials (also the
 * folder where the call's chart is written, and helm's HOME), removed after the call; a bounded
 * time (the rollout timeout and a margin; killed on timeout or when the operation is cancelled)
 * and bounded output. A failure is an InfraError with helm's own message, never a credential.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InfraError, type VimConnection } from '../../../contract.ts';
import { type KubeCredentials, kubeCredentials } from '../client/credentials.ts';
import type { KubernetesConfig } from '../deps.ts';

const MAX_STDOUT = 16 << 20;
const MAX_STDERR = 8 << 10;
/** Beyond helm's own --timeout, for its start and its release bookkeeping. */
const MARGIN_MS = 30_000;

const b64 = (s: string) => Buffer.from(s).toString('base64');

function kubeconfig(c: KubeCredentials, namespace: string): string {
  const user =
    c.auth.kind === 'token'
      ? { token: c.auth.token }
      : c.auth.kind === 'certificate'
        ? { 'client-certificate-data': b64(c.auth.cert), 'client-key-data': b64(c.auth.key) }
        : {};
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'vim',
        cluster: { server: c.server.href, ...(c.ca ? { 'certificate-authority-data': b64(c.ca) } : {}) },
      },
    ],
    users: [{ name: 'bosun', user }],
    contexts: [{ name: 'vim', context: { cluster: 'vim', user: 'bosun', namespace } }],
    'current-context': 'vim',
  });
}

/** helm's --timeout for calls that wait: the operator's rollout timeout. */
export const helmTimeout = (config: KubernetesConfig) => `${Math.ceil(config.rolloutTimeoutMs / 1000)}s`;

export type Helm = (args: string[]) => Promise<string>;

/** Runs `work` with a helm bound to the VIM and namespace, and a private folder for its files. */
export async function withHelm<T>(
  config: KubernetesConfig,
  vim: VimConnection,
  namespace: string,
  signal: AbortSignal,
  work: (helm: Helm, dir: string) => Promise<T>,
): Promise<T> {
  const credentials = kubeCredentials(vim);
  const dir = await mkdtemp(join(tmpdir(), 'bosun-helm-'));
  try {
    await chmod(dir, 0o700);
    const file = join(dir, 'kubeconfig');
    await writeFile(file, kubeconfig(credentials, namespace), { mode: 0o600 });
    const secrets = [
      credentials.auth.kind === 'token' ? credentials.auth.token : '',
      credentials.auth.kind === 'certificate' ? credentials.auth.key : '',
    ].filter(Boolean);
    const helm: Helm = (args) =>
      run(config, [...args, '--namespace', namespace, '--kubeconfig', file], dir, secrets, signal);
    return await work(helm, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(
  config: KubernetesConfig,
  args: string[],
  home: string,
  secrets: string[],
  signal: AbortSignal,
): Promise<string> {
  const what = `helm ${args[0] === 'get' ? 'get manifest' : args[0]}`;
  if (signal.aborted)
    return Promise.reject(new InfraError('CANCELLED', `${what} was not run: the operation was cancelled.`));
  return new Promise((resolve, reject) => {
    const child = spawn(config.helmPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Only what helm needs: no credentials of Bosun's own environment.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, HELM_CACHE_HOME: join(home, 'cache') },
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let ended: InfraError | undefined;
    const stop = (e: InfraError) => {
      ended ??= e;
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > MAX_STDOUT)
        stop(new InfraError('VIM_OPERATION_FAILED', `${what} wrote more than ${MAX_STDOUT} bytes.`));
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString('utf8')).slice(-MAX_STDERR);
    });
    const timer = setTimeout(
      () =>
        stop(
          new InfraError(
            'VIM_TIMEOUT',
            `${what} did not end within ${config.rolloutTimeoutMs + MARGIN_MS} ms (kubernetes.rolloutTimeoutMs and a margin); it was stopped.`,
          ),
        ),
      config.rolloutTimeoutMs + MARGIN_MS,
    );
    const onAbort = () =>
      stop(new InfraError('CANCELLED', `${what} was stopped: the operation was cancelled.`));
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      done();
      reject(
        e.code === 'ENOENT' || e.code === 'EACCES'
          ? new InfraError(
              'INVALID_REQUEST',
              `Helm charts (additionalParams.helm_chart_path) need the helm binary (Helm 3) on the Bosun host, and kubernetes.helmPath ${config.helmPath} runs none (${e.code}); install Helm or set kubernetes.helmPath.`,
              { helmPath: config.helmPath },
            )
          : new InfraError('VIM_OPERATION_FAILED', `${what} could not be run: ${e.message}`),
      );
    });
    child.on('close', (code) => {
      done();
      if (ended) return reject(ended);
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      let message = err.trim() || `exit code ${code}`;
      for (const s of secrets) message = message.split(s).join('***');
      message = message.split(home).join('…');
      reject(new InfraError('VIM_OPERATION_FAILED', `${what} failed: ${message}`, { exitCode: code }));
    });
  });
}
