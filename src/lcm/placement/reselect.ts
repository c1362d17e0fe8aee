/**
 * The choice made when a zone had no room for a server: every VNFC of the operation still
 * granted that zone moves to a zone that has not failed in this run and that the zone rules of
 * its VDU allow (anti-affinity peers elsewhere, affinity peers joined; host affinity binds zones
 * too), the least loaded first. A rule no zone satisfies is broken only with best effort, and
 * said; otherwise, or when no zone is left or the retries are used up, the operation stops.
 */
import { allowedZones, ruleLabel, type ZoneRule, zoneRulesOf } from '../../grant/zone-rules.ts';
import type { PlacementRule } from '../../vnfd/model/vnfd.ts';
import type { PlacementAttempt, PlacementMove } from './attempts.ts';
import type { PlacementFailure } from './failure.ts';

export interface Vnfc {
  id: string;
  vduId: string;
}

export interface ReselectInput {
  failure: PlacementFailure;
  /** The VIM's zones. */
  zones: readonly string[];
  /** Zones that already failed in this run. */
  failed: readonly string[];
  /** Every VNFC the instance has after the operation. */
  vnfcs: readonly Vnfc[];
  /** VNFCs whose zone the operation chooses (added or re-created). */
  movable: readonly Vnfc[];
  /** Where each VNFC is or is to be (by VNFC id). */
  zoneOf: ReadonlyMap<string, string>;
  rules: readonly PlacementRule[];
  fallbackBestEffort: boolean;
  /** Zones tried after the granted one so far, and how many may be. */
  retries: number;
  maxRetries: number;
}

/** The attempt to record (without its time); `moves` is empty when the operation stops. */
export type Reselection = Omit<PlacementAttempt, 'at'>;

export function reselect(input: ReselectInput): Reselection | undefined {
  const { failure } = input;
  const zone = failure.zone ?? (failure.vnfcId ? input.zoneOf.get(failure.vnfcId) : undefined);
  if (!zone) return undefined;
  const moving = input.movable.filter((v) => input.zoneOf.get(v.id) === zone || v.id === failure.vnfcId);
  // A failure of a server the operation does not place (or in a zone none of them is granted).
  if (moving.length === 0) return undefined;
  const base = {
    zone,
    reason: failure.reason,
    ...(failure.vnfcId ? { vnfcId: failure.vnfcId } : {}),
    ...(failure.vduId ? { vduId: failure.vduId } : {}),
  };
  const stop = (stopped: string): Reselection => ({ ...base, next: [], stopped });
  if (input.retries >= input.maxRetries) {
    return stop(
      `${input.maxRetries} other zone(s) tried, as many as lcm.placementZoneRetries allows (0: one per zone of the VIM)`,
    );
  }
  const failed = new Set([...input.failed, zone]);
  const candidates = input.zones.filter((z) => !failed.has(z));
  if (candidates.length === 0)
    return stop(`no zone left: every zone of the VIM (${input.zones.join(', ')}) failed`);

  const assignment = new Map(input.zoneOf);
  const pending = new Set(moving.map((v) => v.id));
  const load = (z: string) => [...assignment.values()].filter((x) => x === z).length;
  const next: PlacementMove[] = [];
  const notes: string[] = [];
  for (const v of moving) {
    pending.delete(v.id);
    const rules: ZoneRule[] = zoneRulesOf(input.rules, v.vduId).map((rule) => ({
      name: rule.name,
      kind: rule.kind,
      scope: rule.scope,
      // Peers still to move are placed after this one, by the same rules.
      peerZones: input.vnfcs
        .filter((o) => o.id !== v.id && !pending.has(o.id) && rule.members.includes(o.vduId))
        .map((o) => assignment.get(o.id))
        .filter((z): z is string => z !== undefined),
      fallbackBestEffort: input.fallbackBestEffort,
    }));
    const verdict = allowedZones(candidates, rules);
    if ('refused' in verdict) {
      return stop(
        `the ${ruleLabel(verdict.refused)} allows none of the zones left (${candidates.join(', ')}) for ${v.vduId} (${v.id}); best effort (additionalParams.fallbackBestEffort) would place it anyway`,
      );
    }
    const least = Math.min(...verdict.zones.map(load));
    const chosen = verdict.zones.find((z) => load(z) === least) as string;
    assignment.set(v.id, chosen);
    next.push({ vnfcId: v.id, vduId: v.vduId, zone: chosen });
    for (const rule of verdict.broken) {
      notes.push(
        `${v.vduId} (${v.id}) goes to zone ${chosen} although no zone left satisfies its ${ruleLabel(rule)} (fallbackBestEffort).`,
      );
    }
  }
  return { ...base, next, ...(notes.length ? { notes } : {}) };
}
