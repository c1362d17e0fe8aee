/**
 * vimConnectionInfo from requests (instantiate, change flavour / ext conn / package, modify):
 * credentials never reach the database in clear. accessInfo is sealed into the stored entry and
 * removed from the copy kept in operationParams; representations never show it.
 */
import type { SealedBox } from '../security/sealed-box.ts';
import type { StoredVimConnection } from './model.ts';

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
    const { accessInfo, ...rest } = entry;
    redacted[key] = rest;
    stored[key] = {
      ...(entry.vimId ? { vimId: entry.vimId } : {}),
      vimType: entry.vimType ?? '',
      ...(entry.interfaceInfo ? { interfaceInfo: entry.interfaceInfo } : {}),
      ...(entry.extra ? { extra: entry.extra } : {}),
      ...(accessInfo ? { sealedAccessInfo: box.seal(JSON.stringify(accessInfo)) } : {}),
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
