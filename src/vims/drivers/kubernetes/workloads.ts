/**
 * Which workload realises which VDU: `additionalParams.vdu_mapping` when the request gives one
 * (`{ VDU1: "name" }` or `{ VDU1: { kind, name } }`), else the workload whose metadata.name is
 * the VDU's `name` property, as Tacker maps them. And the stamp Bosun puts on what it applies:
 * the instance and op occ labels, the namespace, the VDU label on a workload's pod template (by
 * which its pods are listed) and the replicas the operation wants.
 */
import type { Flavour } from '../../../vnfd/model/vnfd.ts';
import { InfraError } from '../../contract.ts';
import type { ManifestObject } from './manifests/objects.ts';
import { LABELS } from './names.ts';

export type VduWorkloads = Map<string, ManifestObject>;

const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function mappedName(mapping: unknown, vduId: string): { kind?: string; name: string } | undefined {
  if (!isMapping(mapping)) return undefined;
  const entry = mapping[vduId];
  if (typeof entry === 'string') return { name: entry };
  if (isMapping(entry) && typeof entry.name === 'string') {
    return { name: entry.name, ...(typeof entry.kind === 'string' ? { kind: entry.kind } : {}) };
  }
  return undefined;
}

/** The workload of every VDU of the flavour that has one among `objects`. */
export function vduWorkloads(
  flavour: Flavour,
  objects: readonly ManifestObject[],
  additionalParams: Record<string, unknown> | undefined,
): VduWorkloads {
  const mapping = additionalParams?.vdu_mapping;
  if (mapping !== undefined && !isMapping(mapping)) {
    throw new InfraError(
      'INVALID_REQUEST',
      'additionalParams.vdu_mapping must map VDU ids to workload names.',
    );
  }
  const out: VduWorkloads = new Map();
  for (const vdu of flavour.vdus) {
    const wanted = mappedName(mapping, vdu.id) ?? { name: vdu.name };
    const found = objects.find(
      (o) => o.info.workload && o.name === wanted.name && (!wanted.kind || o.info.kind === wanted.kind),
    );
    if (found) out.set(vdu.id, found);
    else if (mappedName(mapping, vdu.id)) {
      throw new InfraError(
        'INVALID_REQUEST',
        `additionalParams.vdu_mapping maps ${vdu.id} to ${wanted.kind ?? 'a workload'} ${wanted.name}, which no manifest defines.`,
      );
    }
  }
  return out;
}

/** VDUs the plan wants pods of that no manifest realises. */
export function requireWorkloads(
  workloads: VduWorkloads,
  vduIds: Iterable<string>,
  files: readonly string[],
): void {
  const missing = [...new Set(vduIds)].filter((v) => !workloads.has(v));
  if (missing.length) {
    throw new InfraError(
      'INVALID_REQUEST',
      `No workload in ${files.join(', ') || 'the manifests'} realises ${missing.join(', ')}: a Deployment, StatefulSet, ReplicaSet, DaemonSet or Pod named as the VDU's name property, or mapped by additionalParams.vdu_mapping.`,
      { vduIds: missing },
    );
  }
}

const clone = <T>(v: T): T => structuredClone(v);

function withLabels(target: Record<string, unknown>, labels: Record<string, string>): void {
  const metadata = (isMapping(target.metadata) ? target.metadata : {}) as Record<string, unknown>;
  metadata.labels = { ...(isMapping(metadata.labels) ? metadata.labels : {}), ...labels };
  target.metadata = metadata;
}

export interface Stamp {
  instanceId: string;
  opOccId: string;
  namespace: string;
  /** The VDU the object realises, when it is a VDU's workload. */
  vduId?: string;
  /** Replicas of a VDU's scalable workload. */
  replicas?: number;
}

/** The object as Bosun applies it (a copy). */
export function stamped(object: ManifestObject, stamp: Stamp): Record<string, unknown> {
  const body = clone(object.body);
  withLabels(body, { [LABELS.instance]: stamp.instanceId, [LABELS.opOcc]: stamp.opOccId });
  const metadata = body.metadata as Record<string, unknown>;
  if (object.info.namespaced) metadata.namespace = stamp.namespace;
  else delete metadata.namespace;
  if (stamp.vduId === undefined) return body;
  const podLabels = { [LABELS.instance]: stamp.instanceId, [LABELS.vdu]: stamp.vduId };
  if (object.info.workload === 'pod') {
    withLabels(body, podLabels);
    return body;
  }
  const spec = (isMapping(body.spec) ? body.spec : {}) as Record<string, unknown>;
  const template = (isMapping(spec.template) ? spec.template : {}) as Record<string, unknown>;
  withLabels(template, podLabels);
  spec.template = template;
  if (object.info.workload === 'replicas' && stamp.replicas !== undefined) spec.replicas = stamp.replicas;
  body.spec = spec;
  return body;
}
