/**
 * Which availability zones a VNFC may go to under the rules that bind zones, given the zones its
 * peers are in: the one decision the local NFVO makes when granting and the LCM makes again when
 * a zone turns out to have no room. Zone-scope rules bind zones; so does host-scope affinity
 * (servers that share a host share its zone); host-scope anti-affinity does not.
 */
import type { PlacementRule } from '../vnfd/model/vnfd.ts';

export interface ZoneRule {
  /** The VNFD rule's name, for messages. */
  name: string;
  kind: 'affinity' | 'anti-affinity';
  /** The rule's scope as the VNFD writes it (zone, nfvi_node). */
  scope: string;
  /** Zones the rule's other members are in. */
  peerZones: readonly string[];
  fallbackBestEffort: boolean;
}

export type ZoneVerdict =
  /** Zones allowed (never empty when `candidates` was not), and the best-effort rules broken to get any. */
  | { zones: string[]; broken: ZoneRule[] }
  /** A rule no candidate satisfies and that may not be broken. */
  | { refused: ZoneRule };

/** Whether a rule of the VNFD says anything about zones. */
export const bindsZones = (rule: { scope: string; kind: string }): boolean =>
  rule.scope === 'zone' || (rule.scope === 'nfvi_node' && rule.kind === 'affinity');

/** The candidates every rule allows, rules applied in order; a rule that would leave none is broken or refuses. */
export function allowedZones(candidates: readonly string[], rules: readonly ZoneRule[]): ZoneVerdict {
  let zones = [...candidates];
  const broken: ZoneRule[] = [];
  for (const rule of rules) {
    const next =
      rule.kind === 'affinity'
        ? rule.peerZones.length
          ? zones.filter((z) => rule.peerZones.includes(z))
          : zones
        : zones.filter((z) => !rule.peerZones.includes(z));
    if (next.length > 0) zones = next;
    else if (rule.fallbackBestEffort) broken.push(rule);
    else return { refused: rule };
  }
  return { zones, broken };
}

/** How a rule reads in a message: `zone anti-affinity rule 'spread'`. */
export function ruleLabel(rule: Pick<ZoneRule, 'name' | 'kind' | 'scope'>): string {
  const scope = rule.scope === 'nfvi_node' ? 'host' : rule.scope.replace(/_/g, ' ');
  return `${scope} ${rule.kind} rule '${rule.name}'`;
}

/** The VNFD rules of a VDU that bind zones. */
export const zoneRulesOf = (rules: readonly PlacementRule[], vduId: string): PlacementRule[] =>
  rules.filter((r) => bindsZones(r) && r.members.includes(vduId));
