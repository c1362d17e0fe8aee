/**
 * A Kubernetes VIM connection's credentials as the client needs them: the API server's URL, the
 * cluster CA, and a bearer token or a client certificate and key. Read from SOL003
 * vimConnectionInfo as Tacker writes it (interfaceInfo.endpoint, interfaceInfo.ssl_ca_cert,
 * accessInfo.bearer_token) and from what a kubeconfig import stores (accessInfo.client_cert and
 * client_key). Opened from the registry's sealed store only for the call; never logged.
 */
import { InfraError, type VimConnection } from '../../../contract.ts';

export interface KubeCredentials {
  server: URL;
  ca?: string;
  auth:
    | { kind: 'token'; token: string }
    | { kind: 'certificate'; cert: string; key: string }
    | { kind: 'none' };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

const invalid = (message: string) => new InfraError('INVALID_REQUEST', message);

export function kubeCredentials(vim: VimConnection): KubeCredentials {
  const iface = vim.interfaceInfo ?? {};
  const access = vim.accessInfo ?? {};
  const endpoint = text(iface.endpoint);
  if (!endpoint) {
    throw invalid(
      `The Kubernetes VIM ${vim.vimId ?? vim.id} has no interfaceInfo.endpoint (the API server's URL, e.g. https://10.0.0.1:6443).`,
    );
  }
  let server: URL;
  try {
    server = new URL(endpoint);
  } catch {
    throw invalid(
      `interfaceInfo.endpoint ${endpoint} of Kubernetes VIM ${vim.vimId ?? vim.id} is not a URL.`,
    );
  }
  if (server.protocol !== 'https:' && server.protocol !== 'http:') {
    throw invalid(`interfaceInfo.endpoint ${endpoint} must be an https:// (or http://) URL.`);
  }
  const ca = text(iface.ssl_ca_cert) ?? text(access.ssl_ca_cert);
  const token = text(access.bearer_token);
  const cert = text(access.client_cert);
  const key = text(access.client_key);
  if (token) return { server, ...(ca ? { ca } : {}), auth: { kind: 'token', token } };
  if (cert || key) {
    if (!cert || !key) {
      throw invalid(
        'A client certificate needs both accessInfo.client_cert and accessInfo.client_key (PEM).',
      );
    }
    return { server, ...(ca ? { ca } : {}), auth: { kind: 'certificate', cert, key } };
  }
  return { server, ...(ca ? { ca } : {}), auth: { kind: 'none' } };
}
