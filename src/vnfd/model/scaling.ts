/**
 * Scaling: aspects (ScalingAspects) with their step deltas and max scale level, the per-VDU
 * instance deltas (VduScalingAspectDeltas), VL bitrate deltas, and initial deltas
 * (VduInitialDelta) — what scale and scale-to-level compute instance counts from.
 */

import { ownValue, setOwn } from '../../own-properties.ts';
import { policiesOfType, type TemplateScope } from './scope.ts';
import { SOL001 } from './sol001.ts';
import { num, rec, str, strList } from './values.ts';
import type { ScalingAspect } from './vnfd.ts';

export function readScalingAspects(scope: TemplateScope): ScalingAspect[] {
  const aspects = new Map<string, ScalingAspect>();
  for (const p of policiesOfType(scope, SOL001.scalingAspects)) {
    for (const [id, raw] of Object.entries(rec(p.properties.aspects))) {
      const a = rec(raw);
      aspects.set(id, {
        id,
        name: str(a.name),
        description: str(a.description),
        maxScaleLevel: num(a.max_scale_level) ?? 0,
        stepDeltas: strList(a.step_deltas),
        vduDeltas: {},
        virtualLinkBitrateDeltas: {},
      });
    }
  }
  for (const p of policiesOfType(scope, SOL001.vduScalingAspectDeltas)) {
    const aspect = aspects.get(str(p.properties.aspect) ?? '');
    if (!aspect) continue;
    const deltas: Record<string, number> = {};
    for (const [delta, raw] of Object.entries(rec(p.properties.deltas))) {
      const n = num(rec(raw).number_of_instances);
      if (n !== undefined) setOwn(deltas, delta, n);
    }
    for (const vdu of p.targets)
      setOwn(aspect.vduDeltas, vdu, { ...ownValue(aspect.vduDeltas, vdu), ...deltas });
  }
  for (const p of policiesOfType(scope, SOL001.vlBitrateScalingAspectDeltas)) {
    const aspect = aspects.get(str(p.properties.aspect) ?? '');
    if (!aspect) continue;
    const deltas: Record<string, unknown> = {};
    for (const [delta, raw] of Object.entries(rec(p.properties.deltas))) setOwn(deltas, delta, raw);
    for (const vl of p.targets) {
      setOwn(aspect.virtualLinkBitrateDeltas, vl, {
        ...ownValue(aspect.virtualLinkBitrateDeltas, vl),
        ...deltas,
      });
    }
  }
  return [...aspects.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** VDU name → initial number of instances. */
export function readInitialDeltas(scope: TemplateScope): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of policiesOfType(scope, SOL001.vduInitialDelta)) {
    const n = num(rec(p.properties.initial_delta).number_of_instances);
    if (n === undefined) continue;
    for (const vdu of p.targets) setOwn(out, vdu, n);
  }
  return out;
}

/**
 * The deltas policies define no delta of this id for the aspect (VNFD_SCALING_DELTA_UNKNOWN,
 * tolerated as Tacker does): a step applying it cannot be sized. An aspect without any deltas
 * policy defines nothing and scaling it changes nothing, so no delta is unknown there.
 */
export function isUndefinedDelta(aspect: ScalingAspect, delta: string): boolean {
  const defined = new Set<string>();
  for (const deltas of Object.values(aspect.vduDeltas)) for (const d of Object.keys(deltas)) defined.add(d);
  for (const deltas of Object.values(aspect.virtualLinkBitrateDeltas))
    for (const d of Object.keys(deltas)) defined.add(d);
  return defined.size > 0 && !defined.has(delta);
}
