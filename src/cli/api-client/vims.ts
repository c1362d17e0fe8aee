/** The VIM registry admin API (/bosun/v1/vims) calls of the CLI. */
import type { VimDescription } from '../../vims/description.ts';
import type { VimRecord } from '../../vims/registry.ts';
import type { ApiClient } from './client.ts';

export type { VimDescription, VimRecord };

export const VIMS = '/bosun/v1/vims';

export interface NewVim {
  name: string;
  vimType: string;
  description?: string;
  projectId?: string;
  interfaceInfo?: Record<string, unknown>;
  accessInfo?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  isDefault?: boolean;
}

const one = (id: string, rest = '') => `${VIMS}/${encodeURIComponent(id)}${rest}`;

export const registerVim = (api: ApiClient, vim: NewVim) => api.json<VimRecord>('POST', VIMS, { json: vim });
export const listVims = (api: ApiClient, projectId?: string) =>
  api.json<VimRecord[]>('GET', projectId ? `${VIMS}?${new URLSearchParams({ projectId })}` : VIMS);
export const getVim = (api: ApiClient, id: string) => api.json<VimRecord>('GET', one(id));
export const setDefaultVim = (api: ApiClient, id: string, projectId?: string) =>
  api.json<VimRecord>('POST', one(id, '/default'), { json: projectId ? { projectId } : {} });
export const deleteVim = (api: ApiClient, id: string) => api.request('DELETE', one(id));
export const describeVim = (api: ApiClient, id: string) =>
  api.json<VimDescription>('GET', one(id, '/resources'));
