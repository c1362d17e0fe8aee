/**
 * What hooks may change in an instance, and how it is applied: their `vnfInstance` answer
 * (metadata, extensions, vnfConfigurableProperties) and per-VNFC metadata, as merge patches, when
 * the operation completes. VNFC metadata a hook wrote outlives later operations, whose VIM driver
 * rebuilds vnfcResourceInfo from the VIM; the keys the driver sets stay the driver's.
 */
import type { HookOutput } from '../drivers/mgmt/hook-contract.ts';
import { mergeRecord } from './merge-patch.ts';
import type { VnfInstanceRecord } from './model.ts';

/** VNFC metadata keys the infra drivers set (contract.ts VnfcResourceInfo.metadata); hooks cannot change them. */
export const DRIVER_VNFC_KEYS: ReadonlySet<string> = new Set([
  'zone',
  'host',
  'flavor',
  'image',
  'serverName',
  'opOccId',
]);

const INSTANCE_KEYS = ['metadata', 'extensions', 'vnfConfigurableProperties'] as const;

type Vnfcs = NonNullable<NonNullable<VnfInstanceRecord['instantiatedVnfInfo']>['vnfcResourceInfo']>;

/** Why a hook's VNFC answer cannot apply to the instance it was given, or undefined. */
export function vnfcAnswerProblem(
  output: HookOutput,
  given: { instantiatedVnfInfo?: unknown },
): string | undefined {
  const entries = output.vnfcResourceInfo ?? [];
  if (entries.length === 0) return undefined;
  const vnfcs = ((given.instantiatedVnfInfo as { vnfcResourceInfo?: Vnfcs } | undefined)?.vnfcResourceInfo ??
    []) as Vnfcs;
  const known = new Set(vnfcs.map((v) => v.id));
  const unknown = entries.filter((e) => !known.has(e.id)).map((e) => e.id);
  if (unknown.length) {
    const ids = [...known].join(', ') || 'none';
    return `its answer names VNFCs the instance does not have: ${unknown.join(', ')} (vnfcResourceInfo ids it was given: ${ids})`;
  }
  const reserved = [
    ...new Set(entries.flatMap((e) => Object.keys(e.metadata).filter((k) => DRIVER_VNFC_KEYS.has(k)))),
  ];
  if (reserved.length) {
    return `its answer changes VNFC metadata the VIM driver owns: ${reserved.join(', ')} (hooks cannot change ${[...DRIVER_VNFC_KEYS].join(', ')})`;
  }
  return undefined;
}

function patchVnfcs(vnfcs: Vnfcs, entries: NonNullable<HookOutput['vnfcResourceInfo']>): Vnfcs {
  const patches = new Map<string, Record<string, unknown>[]>();
  for (const e of entries) patches.set(e.id, [...(patches.get(e.id) ?? []), e.metadata]);
  return vnfcs.map((v) => {
    const mine = patches.get(v.id);
    if (!mine) return v;
    // A VNFC the operation removed after the hook ran is simply gone.
    return { ...v, metadata: mine.reduce((m, p) => mergeRecord(m, p), v.metadata ?? {}) };
  });
}

/** The instance with the hooks' answers merged in, in the order the hooks ran. */
export function withHookChanges(
  instance: VnfInstanceRecord,
  outputs: readonly (HookOutput | undefined)[],
): VnfInstanceRecord {
  let out = instance;
  for (const output of outputs) {
    if (!output) continue;
    out = { ...out };
    for (const key of INSTANCE_KEYS) {
      const patch = output.vnfInstance?.[key];
      if (patch) out[key] = mergeRecord(out[key], patch);
    }
    const info = out.instantiatedVnfInfo;
    if (output.vnfcResourceInfo?.length && info?.vnfcResourceInfo) {
      out.instantiatedVnfInfo = {
        ...info,
        vnfcResourceInfo: patchVnfcs(info.vnfcResourceInfo, output.vnfcResourceInfo),
      };
    }
  }
  return out;
}

/**
 * `after` (the instance an operation leaves, its VNFCs as the driver reports them) keeping the
 * metadata hooks wrote on VNFCs that are still there; the driver's own keys win.
 */
export function keepVnfcMetadata(before: VnfInstanceRecord, after: VnfInstanceRecord): VnfInstanceRecord {
  const previous = new Map(
    (before.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => [v.id, v.metadata]),
  );
  const info = after.instantiatedVnfInfo;
  if (!info?.vnfcResourceInfo || previous.size === 0) return after;
  const vnfcResourceInfo = info.vnfcResourceInfo.map((v) => {
    const old = previous.get(v.id);
    if (!old) return v;
    const kept = Object.fromEntries(Object.entries(old).filter(([k]) => !DRIVER_VNFC_KEYS.has(k)));
    return Object.keys(kept).length ? { ...v, metadata: { ...kept, ...v.metadata } } : v;
  });
  return { ...after, instantiatedVnfInfo: { ...info, vnfcResourceInfo } };
}
