/**
 * Placement: PlacementGroups and affinity / anti-affinity rules with their targets expanded
 * to member nodes, which is what the grant's placement constraints are built from.
 */

import { policiesOfType, type TemplateScope } from './scope.ts';
import { SOL001 } from './sol001.ts';
import { str } from './values.ts';
import type { PlacementGroup, PlacementRule } from './vnfd.ts';

export function readPlacementGroups(scope: TemplateScope): PlacementGroup[] {
  return scope.topology.groups
    .filter((g) => scope.types.isA(g.type, SOL001.placementGroup))
    .map((g) => ({ name: g.name, members: [...g.members] }));
}

export function readPlacementRules(scope: TemplateScope, groups: PlacementGroup[]): PlacementRule[] {
  const byName = new Map(groups.map((g) => [g.name, g.members]));
  const rules: PlacementRule[] = [];
  const kinds = [
    [SOL001.affinityRule, 'affinity'],
    [SOL001.antiAffinityRule, 'anti-affinity'],
  ] as const;
  for (const [type, kind] of kinds) {
    for (const p of policiesOfType(scope, type)) {
      const members = [...new Set(p.targets.flatMap((t) => byName.get(t) ?? [t]))];
      rules.push({
        name: p.name,
        kind,
        scope: str(p.properties.scope) ?? '',
        targets: [...p.targets],
        members,
        loc: p.loc,
      });
    }
  }
  return rules;
}
