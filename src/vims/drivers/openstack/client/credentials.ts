/**
 * What the OpenStack client needs from a VIM connection, read from SOL003's
 * vimConnectionInfo for `ETSINFV.OPENSTACK_KEYSTONE.V_3` as Tacker writes it (interfaceInfo
 * `endpoint`, `ssl_ca_cert`; accessInfo `username`, `password`, `project`, `projectId`,
 * `projectDomain`, `userDomain`, `region`) and its legacy vim.yaml spellings (`auth_url`,
 * `project_name`, `user_domain_name`…), plus Keystone application credentials
 * (`applicationCredentialId` + `applicationCredentialSecret`). A missing or malformed field is
 * an InfraError naming it.
 */
import { InfraError, type VimConnection } from '../../../contract.ts';

export type EndpointInterface = 'public' | 'internal' | 'admin';

export type OpenStackAuth =
  | {
      kind: 'password';
      username: string;
      password: string;
      userDomain: string;
    }
  | {
      kind: 'application_credential';
      id?: string;
      name?: string;
      secret: string;
      /** With a credential name: its owner. */
      username?: string;
      userDomain: string;
    };

export interface OpenStackCredentials {
  /** Keystone v3 base URL (ends in /v3). */
  authUrl: string;
  auth: OpenStackAuth;
  /** Project scope (application credentials carry their own). */
  project?: { id?: string; name?: string; domain: string };
  region?: string;
  interface: EndpointInterface;
  /** PEM CA bundle trusted for the VIM's HTTPS endpoints (else the system's). */
  caCert?: string;
}

/** Every spelling a field is met with, first wins. */
const FIELDS = {
  authUrl: ['endpoint', 'auth_url', 'authUrl'],
  caCert: ['ssl_ca_cert', 'sslCaCert', 'cacert'],
  interface: ['interface', 'endpointInterface', 'endpoint_type'],
  username: ['username', 'userName', 'user_name'],
  password: ['password'],
  project: ['project', 'projectName', 'project_name'],
  projectId: ['projectId', 'project_id', 'tenant_id'],
  projectDomain: ['projectDomain', 'projectDomainName', 'project_domain_name'],
  userDomain: ['userDomain', 'userDomainName', 'user_domain_name'],
  region: ['region', 'regionName', 'region_name'],
  appCredId: ['applicationCredentialId', 'application_credential_id'],
  appCredName: ['applicationCredentialName', 'application_credential_name'],
  appCredSecret: ['applicationCredentialSecret', 'application_credential_secret'],
} as const;

type Field = keyof typeof FIELDS;

const INTERFACES: readonly EndpointInterface[] = ['public', 'internal', 'admin'];

export function openStackCredentials(vim: VimConnection): OpenStackCredentials {
  const info = { ...vim.accessInfo, ...vim.interfaceInfo };
  const read = (field: Field): string | undefined => {
    for (const key of FIELDS[field]) {
      const value = info[key];
      if (value === undefined || value === null || value === '') continue;
      if (typeof value !== 'string') throw invalid(vim, `${key} must be a string`);
      return value;
    }
    return undefined;
  };
  const need = (field: Field): string => {
    const value = read(field);
    if (value === undefined) throw invalid(vim, `it has no ${FIELDS[field][0]}`);
    return value;
  };

  const authUrl = need('authUrl');
  let url: URL;
  try {
    url = new URL(authUrl);
  } catch {
    throw invalid(vim, `interfaceInfo.endpoint "${authUrl}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid(vim, 'interfaceInfo.endpoint must be an http or https URL');
  const iface = (read('interface') ?? 'public').replace(/URL$/, '') as EndpointInterface;
  if (!INTERFACES.includes(iface)) throw invalid(vim, `interface must be one of ${INTERFACES.join(', ')}`);

  const secret = read('appCredSecret');
  const userDomain = read('userDomain') ?? 'Default';
  let auth: OpenStackAuth;
  if (secret !== undefined) {
    const id = read('appCredId');
    const name = read('appCredName');
    if (!id && !name) throw invalid(vim, 'an application credential needs applicationCredentialId');
    const username = read('username');
    if (!id && !username) throw invalid(vim, 'an application credential given by name needs its username');
    auth = { kind: 'application_credential', id, name, secret, username, userDomain };
  } else {
    auth = { kind: 'password', username: need('username'), password: need('password'), userDomain };
  }
  const projectName = read('project');
  const projectId = read('projectId');
  const project =
    projectName || projectId
      ? { id: projectId, name: projectName, domain: read('projectDomain') ?? 'Default' }
      : undefined;
  if (!project && auth.kind === 'password') throw invalid(vim, 'it has no project (or projectId)');
  return {
    authUrl: authUrl.replace(/\/+$/, ''),
    auth,
    project,
    region: read('region'),
    interface: iface,
    caCert: read('caCert'),
  };
}

function invalid(vim: VimConnection, why: string): InfraError {
  return new InfraError(
    'INVALID_REQUEST',
    `The OpenStack VIM connection ${vim.vimId ?? vim.id} is not usable: ${why}.`,
    { vimId: vim.vimId, vimConnectionId: vim.id },
  );
}
