/**
 * Whether a driver failure means "this zone has no room for the server": an InfraError
 * NO_VALID_HOST, or any InfraError whose message (or the VIM's reason in its detail) matches one
 * of `lcm.placementReselectPatterns` — Nova says it in several ways. The detail names the VNFC,
 * its VDU and the zone when the driver knows them (the driver contract asks for them).
 */
import { InfraError } from '../../vims/contract.ts';

export interface PlacementFailure {
  reason: string;
  vnfcId?: string;
  vduId?: string;
  zone?: string;
}

/** Longest VIM text matched against the patterns or kept as the reason. */
const MAX_REASON = 2048;

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

export function placementFailure(err: unknown, patterns: readonly string[]): PlacementFailure | undefined {
  if (!(err instanceof InfraError) || err.code === 'CANCELLED') return undefined;
  const detail = err.detail ?? {};
  const reason = (text(detail.reason) ?? err.message).slice(0, MAX_REASON);
  const message = err.message.slice(0, MAX_REASON);
  const matches = patterns.some((p) => {
    const re = new RegExp(p, 'i');
    return re.test(reason) || re.test(message);
  });
  if (err.code !== 'NO_VALID_HOST' && !matches) return undefined;
  const vnfcId = text(detail.vnfcId);
  const vduId = text(detail.vduId);
  const zone = text(detail.zone);
  return { reason, ...(vnfcId ? { vnfcId } : {}), ...(vduId ? { vduId } : {}), ...(zone ? { zone } : {}) };
}
