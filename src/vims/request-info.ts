/**
 * vimConnectionInfo from requests (instantiate, change flavour / ext conn / package, modify):
 * credentials never reach the database in clear. accessInfo, and the interfaceInfo keys that look
 * like secrets (passwords, tokens, keys), are sealed into the stored entry and removed from the
 * copy kept in operationParams; representations never show them.
 */

import type { SealedBox } from '../security/sealed-box.ts';
import type { StoredVimConnection } from './connection-info.ts';
import { splitSecrets } from './connection-info.ts';

type RequestVim = {
  vimId?: string;
  vimType?: string;
  interfaceInfo?: Record<string, unknown>;
  accessInfo?: Record<string, unknown>;
  extra?: Record<string, unknown>;
} | null;

export interface SealedVims {
  /** Entries to merge over the instance's (null deletes an entry, as in a merge patch). */
  stored: Record<string, StoredVimConnection | null>;
  /** The request's map without accessInfo (what operationParams keeps). */
  redacted: Record<string, unknown>;
}

export function sealRequestVims(
  box: SealedBox,
  map: Record<string, RequestVim> | undefined,
): SealedVims | undefined {
  if (!map) return undefined;
  const stored: SealedVims['stored'] = {};
  const redacted: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(map)) {
    if (entry === null) {
      stored[key] = null;
      redacted[key] = null;
      continue;
    }
    const { accessInfo, interfaceInfo, ...rest } = entry;
    const split = splitSecrets(interfaceInfo);
    const hasSecrets = Object.keys(split.secret).length > 0;
    redacted[key] = { ...rest, ...(interfaceInfo ? { interfaceInfo: split.public } : {}) };
    stored[key] = {
      ...(entry.vimId ? { vimId: entry.vimId } : {}),
      vimType: entry.vimType ?? '',
      ...(interfaceInfo ? { interfaceInfo: split.public } : {}),
      ...(entry.extra ? { extra: entry.extra } : {}),
      ...(accessInfo ? { sealedAccessInfo: box.seal(JSON.stringify(accessInfo)) } : {}),
      ...(hasSecrets ? { sealedInterfaceSecrets: box.seal(JSON.stringify(split.secret)) } : {}),
    };
  }
  return { stored, redacted };
}

/** The instance's entries with the request's merged over them (entry by entry; null deletes). */
export function mergeVims(
  current: Record<string, StoredVimConnection>,
  patch: Record<string, StoredVimConnection | null> | undefined,
): Record<string, StoredVimConnection> {
  if (!patch) return current;
  const out = { ...current };
  for (const [key, entry] of Object.entries(patch)) {
    if (entry === null) delete out[key];
    else {
      const base = out[key];
      out[key] = base
        ? {
            ...base,
            ...entry,
            vimType: entry.vimType || base.vimType,
            interfaceInfo: entry.interfaceInfo
              ? { ...base.interfaceInfo, ...entry.interfaceInfo }
              : base.interfaceInfo,
            extra: entry.extra ? { ...base.extra, ...entry.extra } : base.extra,
          }
        : entry;
      if (!out[key].interfaceInfo) delete out[key].interfaceInfo;
      if (!out[key].extra) delete out[key].extra;
    }
  }
  return out;
}

/** Stored entries with their sealed interfaceInfo secrets opened (for the driver, never stored). */
export function openInterfaceSecrets(
  box: SealedBox,
  stored: Record<string, StoredVimConnection>,
): Record<string, StoredVimConnection> {
  const out: Record<string, StoredVimConnection> = {};
  for (const [key, entry] of Object.entries(stored)) {
    const { sealedInterfaceSecrets, ...rest } = entry;
    out[key] = sealedInterfaceSecrets
      ? {
          ...rest,
          interfaceInfo: {
            ...rest.interfaceInfo,
            ...(JSON.parse(box.open(sealedInterfaceSecrets).toString('utf8')) as Record<string, unknown>),
          },
        }
      : rest;
  }
  return out;
}

/** Stored entries without anything sealed, for views and hooks. */
export function withoutSealed(
  stored: Record<string, StoredVimConnection>,
): Record<string, StoredVimConnection> {
  const out: Record<string, StoredVimConnection> = {};
  for (const [key, entry] of Object.entries(stored)) {
    const { sealedAccessInfo: _a, sealedInterfaceSecrets: _i, ...rest } = entry;
    out[key] = rest;
  }
  return out;
}
