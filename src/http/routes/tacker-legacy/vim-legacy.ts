/**
 * Between Tacker's legacy VIM (auth_url, vim_project, auth_cred, is_default…) and Bosun's VIM
 * registry (SOL003 interfaceInfo and accessInfo as the OpenStack driver reads them): the
 * connection a request describes, and the view of a registered VIM. The view never carries a
 * secret: Tacker shows auth_cred with its password masked, Bosun leaves it out.
 */
import { ApiError } from '../../../sol/problem.ts';
import type { OpenedVim } from '../../../vims/registry.ts';
import { type AuthCredIn, legacyTypeOf, type VimProjectIn } from './vim-shapes.ts';

export interface LegacyVimView {
  id: string;
  type: string;
  tenant_id: string;
  name: string;
  description: string;
  placement_attr: { regions: string[]; zones: string[] };
  auth_url: string;
  vim_project: { name: string; project_domain_name: string };
  auth_cred: { username: string; user_domain_name: string; cert_verify: 'True' };
  /** REACHABLE: answered the registration check; ACTIVE: registered without one (the built-in VIM). */
  status: 'REACHABLE' | 'ACTIVE';
  is_default: boolean;
  shared: boolean;
  created_at: string;
  updated_at: string | null;
  extra: Record<string, unknown>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function legacyView(vim: OpenedVim): LegacyVimView {
  const { record } = vim;
  const access = vim.accessInfo ?? {};
  return {
    id: record.id,
    type: legacyTypeOf(record.vimType),
    tenant_id: record.projectId,
    name: record.name,
    description: record.description,
    placement_attr: { regions: access.region ? [text(access.region)] : [], zones: record.zones ?? [] },
    auth_url: text(vim.interfaceInfo.endpoint),
    vim_project: { name: text(access.project), project_domain_name: text(access.projectDomain) },
    auth_cred: {
      username: text(access.username),
      user_domain_name: text(access.userDomain),
      cert_verify: 'True',
    },
    status: record.zones ? 'REACHABLE' : 'ACTIVE',
    is_default: record.isDefault,
    shared: record.shared,
    created_at: record.createdAt,
    updated_at: record.updatedAt ?? null,
    extra: record.extra,
  };
}

/**
 * Bosun always verifies the VIM's certificate: cert_verify False would hand the credentials to
 * whoever answers at the address. Over plain http there is nothing to verify.
 */
function refuseUnverified(authUrl: string, cred: AuthCredIn | undefined): void {
  const off = cred?.cert_verify === 'False' || cred?.cert_verify === false;
  if (!off || !authUrl.startsWith('https:')) return;
  throw new ApiError(
    422,
    "auth_cred.cert_verify False is refused: Bosun always verifies the VIM's certificate, so that its " +
      'credentials go to no one else. Give the CA bundle that issued it instead (ssl_ca_cert in vim.yaml, ' +
      'or bosun vim register --ca-bundle).',
  );
}

/** Sets `key` when `value` is a non-empty string (the client sends '' for what vim.yaml lacks). */
function put(target: Record<string, unknown>, key: string, value: string | undefined): void {
  if (value) target[key] = value;
}

/**
 * The registry's interfaceInfo and accessInfo for a legacy request; `current` (an update) supplies
 * what the request leaves out, so `vim set --config-file` without a password keeps the stored one.
 */
export function connectionOf(
  request: { auth_url?: string; vim_project?: VimProjectIn; auth_cred?: AuthCredIn },
  current?: OpenedVim,
): { interfaceInfo: Record<string, unknown>; accessInfo: Record<string, unknown> } {
  const interfaceInfo: Record<string, unknown> = { ...current?.interfaceInfo };
  const accessInfo: Record<string, unknown> = { ...current?.accessInfo };
  put(interfaceInfo, 'endpoint', request.auth_url);
  const cred = request.auth_cred;
  refuseUnverified(text(interfaceInfo.endpoint), cred);
  put(interfaceInfo, 'ssl_ca_cert', cred?.ssl_ca_cert);
  put(accessInfo, 'username', cred?.username);
  put(accessInfo, 'password', cred?.password);
  put(accessInfo, 'userDomain', cred?.user_domain_name);
  put(accessInfo, 'bearer_token', cred?.bearer_token);
  put(accessInfo, 'oidc_token_url', cred?.oidc_token_url);
  put(accessInfo, 'client_id', cred?.client_id);
  put(accessInfo, 'client_secret', cred?.client_secret);
  put(accessInfo, 'project', request.vim_project?.name);
  put(accessInfo, 'projectId', request.vim_project?.id);
  put(accessInfo, 'projectDomain', request.vim_project?.project_domain_name);
  return { interfaceInfo, accessInfo };
}
