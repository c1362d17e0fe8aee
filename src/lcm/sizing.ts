/**
 * Instance counts from the VNFD model: how many VNFCs of each VDU an instantiation level, a scale
 * level or a scaling operation means, and the checks that keep them inside the VNFD's bounds.
 *
 * - A level's count for a VDU is its VduInstantiationLevels value; without one, the VDU's initial
 *   delta (else its vdu_profile minimum) plus the deltas of every aspect up to the level's scale
 *   level for that aspect.
 * - Scale step k of an aspect (from level k-1 to k) applies step_deltas[k-1], the last delta
 *   repeating when the list is shorter than max_scale_level (a single delta is the uniform case).
 * - Every resulting count must stay within the VDU's vdu_profile [min, max].
 *
 * Errors are ApiErrors: 400 for a request naming something the VNFD does not have or asking for
 * a level out of range (Tacker's status for these), 422 when the VNFD itself is inconsistent.
 */

import type { InstantiatedVnfInfo, ScaleInfo } from '../sol/instance-model.ts';
import { ApiError } from '../sol/problem.ts';
import type { AspectChange } from '../vims/contract.ts';
import { isUndefinedDelta } from '../vnfd/model/scaling.ts';
import type { Flavour, InstantiationLevel, ScalingAspect, Vdu, Vnfd } from '../vnfd/model/vnfd.ts';

export type VduCounts = Record<string, number>;

export interface LevelSizing {
  /** The level used (the request's, else the VNFD's default level), when the flavour has levels. */
  instantiationLevelId?: string;
  vduCounts: VduCounts;
  scaleStatus: ScaleInfo[];
  maxScaleLevels: ScaleInfo[];
}

export function findFlavour(vnfd: Vnfd, flavourId: string): Flavour {
  const flavour = vnfd.flavours.find((f) => f.flavourId === flavourId);
  if (!flavour) {
    const known = vnfd.flavours.map((f) => f.flavourId).join(', ');
    throw new ApiError(400, `Flavour ${flavourId} is not in the VNFD (its flavours: ${known || 'none'}).`);
  }
  return flavour;
}

export function findLevel(flavour: Flavour, levelId: string): InstantiationLevel {
  const level = flavour.instantiationLevels?.levels.find((l) => l.id === levelId);
  if (!level) {
    const known = flavour.instantiationLevels?.levels.map((l) => l.id).join(', ');
    throw new ApiError(
      400,
      `Instantiation level ${levelId} is not in flavour ${flavour.flavourId} (its levels: ${known || 'none'}).`,
    );
  }
  return level;
}

export function findAspect(flavour: Flavour, aspectId: string): ScalingAspect {
  const aspect = flavour.scalingAspects.find((a) => a.id === aspectId);
  if (!aspect) {
    const known = flavour.scalingAspects.map((a) => a.id).join(', ');
    throw new ApiError(
      400,
      `Scaling aspect ${aspectId} is not in flavour ${flavour.flavourId} (its aspects: ${known || 'none'}).`,
    );
  }
  return aspect;
}

/**
 * The delta id applied by step `k` (1-based) of an aspect. A step delta the VNFD never defines
 * was accepted at onboarding (as Tacker does); the VNF cannot be sized through it: 422.
 */
export function deltaOfStep(aspect: ScalingAspect, k: number): string | undefined {
  if (aspect.stepDeltas.length === 0) return undefined;
  const delta = aspect.stepDeltas[Math.min(k, aspect.stepDeltas.length) - 1];
  if (isUndefinedDelta(aspect, delta)) {
    throw new ApiError(
      422,
      `Scaling aspect ${aspect.id} cannot take step ${k} (between scale levels ${k - 1} and ${k}): its step delta ${delta} is not defined by any VduScalingAspectDeltas policy of the VNFD. Fix step_deltas or the deltas policies of the aspect in the VNF package.`,
    );
  }
  return delta;
}

/** VNFCs of `vdu` that steps from+1..to of `aspect` add (from < to). */
export function deltaBetween(aspect: ScalingAspect, vdu: string, from: number, to: number): number {
  const deltas = aspect.vduDeltas[vdu];
  if (!deltas) return 0;
  let n = 0;
  for (let k = from + 1; k <= to; k++) {
    const delta = deltaOfStep(aspect, k);
    n += delta === undefined ? 0 : (deltas[delta] ?? 0);
  }
  return n;
}

const initialCount = (flavour: Flavour, vdu: Vdu) =>
  flavour.initialDeltas[vdu.id] ?? vdu.vduProfile.minNumberOfInstances;

/** Counts per VDU at the given scale levels (aspect id → level; absent aspects are at 0). */
export function countsAtScale(flavour: Flavour, levels: Record<string, number>): VduCounts {
  const counts: VduCounts = {};
  for (const vdu of flavour.vdus) {
    let n = initialCount(flavour, vdu);
    for (const aspect of flavour.scalingAspects) n += deltaBetween(aspect, vdu.id, 0, levels[aspect.id] ?? 0);
    counts[vdu.id] = n;
  }
  return counts;
}

/** Throws 422 when a count is outside its VDU's vdu_profile. */
export function checkProfiles(flavour: Flavour, counts: VduCounts, what: string, status = 422): void {
  for (const vdu of flavour.vdus) {
    const n = counts[vdu.id] ?? 0;
    const { minNumberOfInstances: min, maxNumberOfInstances: max } = vdu.vduProfile;
    if (n < min || n > max) {
      throw new ApiError(
        status,
        `${what} gives VDU ${vdu.id} ${n} instance(s), outside its vdu_profile (${min}..${max}).`,
      );
    }
  }
}

function scaleInfos(flavour: Flavour, levels: Record<string, number>): ScaleInfo[] {
  return flavour.scalingAspects.map((a) => ({ aspectId: a.id, scaleLevel: levels[a.id] ?? 0 }));
}

export function maxScaleLevels(flavour: Flavour): ScaleInfo[] {
  return flavour.scalingAspects.map((a) => ({ aspectId: a.id, scaleLevel: a.maxScaleLevel }));
}

function checkScaleLevels(flavour: Flavour, levels: Record<string, number>, what: string): void {
  for (const [aspectId, level] of Object.entries(levels)) {
    const aspect = findAspect(flavour, aspectId);
    if (!Number.isInteger(level) || level < 0 || level > aspect.maxScaleLevel) {
      throw new ApiError(
        400,
        `${what} puts aspect ${aspectId} at scale level ${level}, outside 0..${aspect.maxScaleLevel}.`,
      );
    }
  }
}

/** What instantiating (or changing to) `flavour` at `levelId` (or the default level) means. */
export function sizeForInstantiation(flavour: Flavour, levelId?: string): LevelSizing {
  const levels = flavour.instantiationLevels;
  const chosen =
    levelId ?? levels?.defaultLevel ?? (levels?.levels.length === 1 ? levels.levels[0].id : undefined);
  if (chosen === undefined) {
    const counts = countsAtScale(flavour, {});
    checkProfiles(flavour, counts, `Flavour ${flavour.flavourId} without an instantiation level`);
    return {
      vduCounts: counts,
      scaleStatus: scaleInfos(flavour, {}),
      maxScaleLevels: maxScaleLevels(flavour),
    };
  }
  const level = findLevel(flavour, chosen);
  const scale: Record<string, number> = {};
  for (const aspect of flavour.scalingAspects) scale[aspect.id] = level.scaleInfo[aspect.id] ?? 0;
  checkScaleLevels(flavour, level.scaleInfo, `Instantiation level ${level.id}`);
  // Deltas are applied only for VDUs the level gives no count: the level alone scales nothing.
  const byDeltas = flavour.vdus.some((v) => level.vduInstances[v.id] === undefined);
  const fromScale = byDeltas ? countsAtScale(flavour, scale) : {};
  const counts: VduCounts = {};
  for (const vdu of flavour.vdus) counts[vdu.id] = level.vduInstances[vdu.id] ?? fromScale[vdu.id];
  checkProfiles(flavour, counts, `Instantiation level ${level.id}`);
  return {
    instantiationLevelId: level.id,
    vduCounts: counts,
    scaleStatus: scaleInfos(flavour, scale),
    maxScaleLevels: maxScaleLevels(flavour),
  };
}

/** Current VNFC counts per VDU of an instantiated VNF. */
export function currentCounts(flavour: Flavour, info: InstantiatedVnfInfo | undefined): VduCounts {
  const counts: VduCounts = {};
  for (const vdu of flavour.vdus) counts[vdu.id] = 0;
  for (const vnfc of info?.vnfcResourceInfo ?? []) counts[vnfc.vduId] = (counts[vnfc.vduId] ?? 0) + 1;
  return counts;
}

export function currentScaleLevels(info: InstantiatedVnfInfo | undefined): Record<string, number> {
  const levels: Record<string, number> = {};
  for (const s of info?.scaleStatus ?? []) levels[s.aspectId] = s.scaleLevel;
  return levels;
}

export interface ScaleSizing {
  /** Per VDU: VNFCs to add (positive) or remove (negative). */
  changes: VduCounts;
  /** Every aspect whose scale level changes. */
  aspects: AspectChange[];
  /** Scale levels after the operation. */
  scaleStatus: ScaleInfo[];
}

/** SCALE (SOL003 ScaleVnfRequest): `numberOfSteps` steps out or in on one aspect. */
export function sizeScale(
  flavour: Flavour,
  info: InstantiatedVnfInfo | undefined,
  request: { type: 'SCALE_OUT' | 'SCALE_IN'; aspectId: string; numberOfSteps: number },
): ScaleSizing {
  const levels = currentScaleLevels(info);
  if (!(request.aspectId in levels)) {
    const known = Object.keys(levels).join(', ');
    throw new ApiError(
      400,
      `Scaling aspect ${request.aspectId} is not in the instance's scaleStatus (its aspects: ${known || 'none'}).`,
    );
  }
  const aspect = findAspect(flavour, request.aspectId);
  const from = levels[aspect.id];
  const to = request.type === 'SCALE_OUT' ? from + request.numberOfSteps : from - request.numberOfSteps;
  if (to < 0 || to > aspect.maxScaleLevel) {
    throw new ApiError(
      400,
      `${request.type} by ${request.numberOfSteps} step(s) would take aspect ${aspect.id} from scale level ${from} to ${to}, outside 0..${aspect.maxScaleLevel}.`,
    );
  }
  return sizeToLevels(
    flavour,
    info,
    { ...levels, [aspect.id]: to },
    `${request.type} of aspect ${aspect.id}`,
  );
}

/** From the current scale levels to `target` (aspect → level), VDU by VDU. */
export function sizeToLevels(
  flavour: Flavour,
  info: InstantiatedVnfInfo | undefined,
  target: Record<string, number>,
  what: string,
): ScaleSizing {
  const levels = currentScaleLevels(info);
  checkScaleLevels(flavour, target, what);
  const changes: VduCounts = {};
  for (const vdu of flavour.vdus) {
    let n = 0;
    for (const aspect of flavour.scalingAspects) {
      const from = levels[aspect.id] ?? 0;
      const to = target[aspect.id] ?? from;
      n += to >= from ? deltaBetween(aspect, vdu.id, from, to) : -deltaBetween(aspect, vdu.id, to, from);
    }
    if (n !== 0) changes[vdu.id] = n;
  }
  const current = currentCounts(flavour, info);
  const after: VduCounts = {};
  for (const vdu of flavour.vdus) after[vdu.id] = current[vdu.id] + (changes[vdu.id] ?? 0);
  checkProfiles(flavour, after, what, 400);
  const scaleStatus = flavour.scalingAspects.map((a) => ({
    aspectId: a.id,
    scaleLevel: target[a.id] ?? levels[a.id] ?? 0,
  }));
  const aspects = flavour.scalingAspects
    .map((a) => ({
      aspectId: a.id,
      fromLevel: levels[a.id] ?? 0,
      toLevel: target[a.id] ?? levels[a.id] ?? 0,
    }))
    .filter((a) => a.fromLevel !== a.toLevel);
  return { changes, aspects, scaleStatus };
}

/**
 * SCALE_TO_LEVEL (ScaleVnfToLevelRequest): to an instantiation level (every aspect to the
 * level's scale level) or to explicit scale levels (the aspects named; others unchanged).
 */
export function sizeScaleToLevel(
  flavour: Flavour,
  info: InstantiatedVnfInfo | undefined,
  request: { instantiationLevelId?: string; scaleInfo?: { aspectId: string; scaleLevel: number }[] },
): ScaleSizing {
  if (request.instantiationLevelId !== undefined) {
    const level = findLevel(flavour, request.instantiationLevelId);
    const target: Record<string, number> = {};
    for (const aspect of flavour.scalingAspects) target[aspect.id] = level.scaleInfo[aspect.id] ?? 0;
    return sizeToLevels(flavour, info, target, `Instantiation level ${level.id}`);
  }
  const target: Record<string, number> = {};
  for (const s of request.scaleInfo ?? []) {
    if (s.aspectId in target) throw new ApiError(400, `scaleInfo names aspect ${s.aspectId} twice.`);
    target[s.aspectId] = s.scaleLevel;
  }
  return sizeToLevels(flavour, info, target, 'The requested scaleInfo');
}
