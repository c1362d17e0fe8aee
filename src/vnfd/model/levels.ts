/**
 * Instantiation levels: the InstantiationLevels policy (levels, default level, scale_info)
 * joined with the VduInstantiationLevels and VirtualLinkInstantiationLevels policies, so that
 * instantiate knows how many instances of each VDU a level means.
 */

import { setOwn } from '../../own-properties.ts';
import { policiesOfType, type TemplateScope } from './scope.ts';
import { SOL001 } from './sol001.ts';
import { num, rec, str } from './values.ts';
import type { InstantiationLevel, InstantiationLevels } from './vnfd.ts';

export function readInstantiationLevels(scope: TemplateScope): InstantiationLevels | undefined {
  // Tacker uses the first InstantiationLevels policy; rules.ts warns about more.
  const policy = policiesOfType(scope, SOL001.instantiationLevels)[0];
  if (!policy) return undefined;
  const levels = new Map<string, InstantiationLevel>();
  for (const [id, raw] of Object.entries(rec(policy.properties.levels))) {
    const l = rec(raw);
    const scaleInfo: Record<string, number> = {};
    for (const [aspect, info] of Object.entries(rec(l.scale_info))) {
      const level = num(rec(info).scale_level);
      if (level !== undefined) setOwn(scaleInfo, aspect, level);
    }
    levels.set(id, {
      id,
      description: str(l.description),
      scaleInfo,
      vduInstances: {},
      virtualLinkBitrates: {},
    });
  }
  for (const p of policiesOfType(scope, SOL001.vduInstantiationLevels)) {
    for (const [id, raw] of Object.entries(rec(p.properties.levels))) {
      const n = num(rec(raw).number_of_instances);
      const level = levels.get(id);
      if (!level || n === undefined) continue;
      for (const vdu of p.targets) setOwn(level.vduInstances, vdu, n);
    }
  }
  for (const p of policiesOfType(scope, SOL001.vlInstantiationLevels)) {
    for (const [id, raw] of Object.entries(rec(p.properties.levels))) {
      const level = levels.get(id);
      if (!level) continue;
      for (const vl of p.targets) setOwn(level.virtualLinkBitrates, vl, rec(raw).bitrate_requirements);
    }
  }
  return {
    policy: policy.name,
    defaultLevel: str(policy.properties.default_level),
    levels: [...levels.values()],
  };
}
