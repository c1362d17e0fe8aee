/**
 * The VIM a grant names. An NFVO may answer which VIM to use (Grant.vimConnectionInfo, SOL003
 * §9.5.2.3: the VNFM adds the entries it does not know to the instance's vimConnectionInfo); the
 * operation then works on the VIM the grant's resources and zones refer to, else the one the
 * instance already uses when the grant lists it, else the grant's first. Without any, the VIM
 * resolved before granting stays.
 */
import type { Grant } from '../../grant/types.ts';
import type { StoredVimConnection } from '../../vims/connection-info.ts';
import { mergeVims } from '../../vims/request-info.ts';

/** The key of the grant's VIM, and the connections with it first (the operation uses the first). */
export function grantedVims(
  grant: Grant,
  resolvedKey: string,
  current: Record<string, StoredVimConnection>,
): { key: string; stored: Record<string, StoredVimConnection> } | undefined {
  const granted = grant.vimConnectionInfo ?? {};
  const keys = Object.keys(granted);
  if (keys.length === 0) return undefined;
  const referenced = [...(grant.addResources ?? []), ...(grant.updateResources ?? []), ...(grant.zones ?? [])]
    .map((r) => r.vimConnectionId)
    .find((id): id is string => id !== undefined && id in granted);
  const key = referenced ?? (resolvedKey in granted ? resolvedKey : keys[0]);
  const merged = mergeVims(current, granted);
  const { [key]: chosen, ...others } = merged;
  return { key, stored: { [key]: chosen, ...others } };
}
