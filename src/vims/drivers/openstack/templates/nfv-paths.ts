/**
 * The `nfv` parameter's shape comes from the template itself (Tacker's UserData convention):
 * every `get_param: [nfv, <section>, <key>, <leaf>…]` names one value the parameter must hold.
 * These helpers find those paths and rewrite their key (per-VNFC copies of a VDU resource).
 */
import { isMapping } from './hot-yaml.ts';

export type NfvPath = (string | number)[];

const isNfvPath = (v: unknown): v is NfvPath =>
  Array.isArray(v) &&
  v.length >= 4 &&
  v[0] === 'nfv' &&
  v.every((p) => typeof p === 'string' || (typeof p === 'number' && Number.isInteger(p) && p >= 0));

/** Every nfv path the value uses, in the order written. */
export function nfvPaths(value: unknown, out: NfvPath[] = []): NfvPath[] {
  if (Array.isArray(value)) {
    for (const v of value) nfvPaths(v, out);
  } else if (isMapping(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'get_param' && isNfvPath(v)) out.push(v);
      else nfvPaths(v, out);
    }
  }
  return out;
}

/** A deep copy of `value` with the key (third element) of every nfv path renamed by `rename`. */
export function renameNfvKeys<T>(value: T, rename: (key: string) => string): T {
  if (Array.isArray(value)) return value.map((v) => renameNfvKeys(v, rename)) as T;
  if (!isMapping(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      key === 'get_param' && isNfvPath(v)
        ? [v[0], v[1], rename(String(v[2])), ...v.slice(3)]
        : renameNfvKeys(v, rename);
  }
  return out as T;
}
