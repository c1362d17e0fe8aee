/**
 * SOL003 vimConnectionInfo in its two shapes — v1 (SOL003 v2.6.1): an array of entries with an
 * `id`; v2 (v3.3.1): a map keyed by that id — converters between them, the stored form (no
 * credentials in clear: accessInfo sealed with the SealedBox) and the view for API responses,
 * which never carries credentials.
 */
import type { SealedBox } from '../security/sealed-box.ts';

/** One VIM connection as SOL003 v3.3.1 writes it (a value of the map). */
export interface VimConnectionInfoEntry {
  vimId?: string;
  vimType: string;
  interfaceInfo?: Record<string, unknown>;
  accessInfo?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

/** SOL003 v2.6.1 VimConnectionInfo: the same with its id inside. */
export interface VimConnectionInfoV1 extends VimConnectionInfoEntry {
  id: string;
}

export type VimConnectionInfoMap = Record<string, VimConnectionInfoEntry>;

/**
 * One entry of an instance's vimConnectionInfo as stored: never credentials in clear. An entry
 * names a registered VIM (`vimId`) or carries its access info sealed (`sealedAccessInfo`).
 */
export interface StoredVimConnection {
  vimId?: string;
  vimType: string;
  interfaceInfo?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  /** accessInfo given in a request for a VIM that is not registered, sealed with the SealedBox. */
  sealedAccessInfo?: string;
  /** Secret-looking interfaceInfo keys of a request (passwords, tokens, keys), sealed the same way. */
  sealedInterfaceSecrets?: string;
}

/** interfaceInfo keys that hold secrets (never returned; sealed in the VIM registry). */
export const SECRET_KEY = /password|passwd|secret|token|credential|private|cert|(^|[_-])key$|[a-z]Key$/;

export const isSecretKey = (key: string) => SECRET_KEY.test(key) || SECRET_KEY.test(key.toLowerCase());

/** Splits an object into its public and secret keys. */
export function splitSecrets(info: Record<string, unknown> | undefined): {
  public: Record<string, unknown>;
  secret: Record<string, unknown>;
} {
  const pub: Record<string, unknown> = {};
  const secret: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(info ?? {})) (isSecretKey(k) ? secret : pub)[k] = v;
  return { public: pub, secret };
}

const entryOf = <T extends VimConnectionInfoEntry>(e: T): VimConnectionInfoEntry => ({
  ...(e.vimId !== undefined ? { vimId: e.vimId } : {}),
  vimType: e.vimType,
  ...(e.interfaceInfo !== undefined ? { interfaceInfo: e.interfaceInfo } : {}),
  ...(e.accessInfo !== undefined ? { accessInfo: e.accessInfo } : {}),
  ...(e.extra !== undefined ? { extra: e.extra } : {}),
});

export function v1ToV2(list: readonly VimConnectionInfoV1[]): VimConnectionInfoMap {
  const out: VimConnectionInfoMap = {};
  for (const e of list) out[e.id] = entryOf(e);
  return out;
}

export function v2ToV1(map: VimConnectionInfoMap): VimConnectionInfoV1[] {
  return Object.entries(map).map(([id, e]) => ({ id, ...entryOf(e) }));
}

/** vimConnectionInfo in any form Bosun meets it: v1 array, v2 map, stored (sealed) map, or none. */
export type AnyVimConnectionInfo =
  | readonly VimConnectionInfoV1[]
  | VimConnectionInfoMap
  | Record<string, StoredVimConnection>
  | undefined
  | null;

/** Either shape (or nothing) as a map. */
export function toVimMap(
  input: AnyVimConnectionInfo,
): Record<string, VimConnectionInfoEntry & { sealedAccessInfo?: string }> {
  if (!input) return {};
  if (Array.isArray(input)) return v1ToV2(input as VimConnectionInfoV1[]);
  return input as Record<string, VimConnectionInfoEntry & { sealedAccessInfo?: string }>;
}

/** The form to store: accessInfo sealed, nothing in clear. */
export function sealVimConnectionInfo(
  box: SealedBox,
  input: readonly VimConnectionInfoV1[] | VimConnectionInfoMap,
): Record<string, StoredVimConnection> {
  const out: Record<string, StoredVimConnection> = {};
  for (const [key, e] of Object.entries(toVimMap(input))) {
    const { accessInfo, ...rest } = e;
    out[key] = {
      ...(rest.vimId !== undefined ? { vimId: rest.vimId } : {}),
      vimType: rest.vimType,
      ...(rest.interfaceInfo !== undefined ? { interfaceInfo: rest.interfaceInfo } : {}),
      ...(rest.extra !== undefined ? { extra: rest.extra } : {}),
      ...(accessInfo ? { sealedAccessInfo: box.seal(JSON.stringify(accessInfo)) } : {}),
      ...(rest.sealedAccessInfo && !accessInfo ? { sealedAccessInfo: rest.sealedAccessInfo } : {}),
    };
  }
  return out;
}

/** Opens a stored entry's sealed accessInfo. */
export function openAccessInfo(
  box: SealedBox,
  sealed: string | undefined,
): Record<string, unknown> | undefined {
  return sealed ? (JSON.parse(box.open(sealed).toString('utf8')) as Record<string, unknown>) : undefined;
}

/** The map as an API response shows it: no accessInfo, no secret interfaceInfo keys. */
export function vimConnectionInfoView(input: AnyVimConnectionInfo): Record<string, VimConnectionInfoEntry> {
  const out: Record<string, VimConnectionInfoEntry> = {};
  for (const [key, e] of Object.entries(toVimMap(input))) {
    const { accessInfo: _a, sealedAccessInfo: _s, interfaceInfo, ...rest } = e;
    out[key] = {
      ...rest,
      ...(interfaceInfo !== undefined ? { interfaceInfo: splitSecrets(interfaceInfo).public } : {}),
    };
  }
  return out;
}

/** The v1 array view. */
export const vimConnectionInfoViewV1 = (input: AnyVimConnectionInfo): VimConnectionInfoV1[] =>
  v2ToV1(vimConnectionInfoView(input));
