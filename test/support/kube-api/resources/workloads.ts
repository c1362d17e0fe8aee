/**
 * Deployments, ReplicaSets, StatefulSets and DaemonSets: their defaults (strategy, history,
 * deadlines, the template's pod spec) and validation (a selector that matches the template's
 * labels, and that cannot change once set).
 */

import { labelSelectorMatcher } from '../selectors.ts';
import type { Cause } from '../status.ts';
import type { Obj } from '../store.ts';
import type { Behaviour } from './behaviour.ts';
import { podSpecCauses, podSpecDefaults } from './pod.ts';
import { goMap, immutable, required } from './validation.ts';

function templateCauses(obj: Obj, old: Obj | undefined): Cause[] {
  const spec = obj.spec ?? {};
  const causes: Cause[] = [];
  if (!spec.selector) causes.push(required('spec.selector'));
  else if (!labelSelectorMatcher(spec.selector)(spec.template?.metadata?.labels)) {
    causes.push({
      field: 'spec.template.metadata.labels',
      message: `Invalid value: ${goMap(spec.template?.metadata?.labels)}: \`selector\` does not match template \`labels\``,
    });
  }
  if (typeof spec.replicas === 'number' && spec.replicas < 0) {
    causes.push({
      field: 'spec.replicas',
      message: `Invalid value: ${spec.replicas}: must be greater than or equal to 0`,
    });
  }
  causes.push(...podSpecCauses(spec.template?.spec, 'spec.template.spec'));
  if (old && spec.selector) {
    const [c] = immutable('spec.selector', spec.selector, old.spec?.selector);
    if (c)
      causes.push({
        ...c,
        message: `Invalid value: v1.LabelSelector{MatchLabels:${goMap(spec.selector.matchLabels)}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable`,
      });
  }
  return causes;
}

const templated = (extra: (spec: Obj) => void): Behaviour => ({
  defaults(obj) {
    obj.spec ??= {};
    extra(obj.spec);
    obj.spec.template ??= {};
    // The real server writes the zero timestamp of a template's metadata as null.
    obj.spec.template.metadata ??= {};
    obj.spec.template.metadata.creationTimestamp ??= null;
    podSpecDefaults(obj.spec.template.spec);
  },
  validate: templateCauses,
  initialStatus: () => ({}),
});

export const deployment = templated((spec) => {
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  spec.strategy ??= { type: 'RollingUpdate' };
  if (spec.strategy.type === 'RollingUpdate') {
    spec.strategy.rollingUpdate ??= {};
    spec.strategy.rollingUpdate.maxSurge ??= '25%';
    spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
  }
});

export const replicaSet = templated((spec) => {
  spec.replicas ??= 1;
});

/** A StatefulSet's spec may change only in these fields once created. */
const STATEFUL_SET_MUTABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

function statefulSetUpdateCauses(obj: Obj, old: Obj | undefined): Cause[] {
  if (!old) return [];
  const fixed = (spec: Obj) =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(spec ?? {})
          .filter(([k]) => !STATEFUL_SET_MUTABLE.includes(k))
          .sort(),
      ),
    );
  if (fixed(obj.spec) === fixed(old.spec)) return [];
  return [
    {
      field: 'spec',
      reason: 'FieldValueForbidden',
      message:
        "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    },
  ];
}

const statefulSetDefaults = templated((spec) => {
  spec.replicas ??= 1;
  spec.podManagementPolicy ??= 'OrderedReady';
  spec.revisionHistoryLimit ??= 10;
  spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
  spec.persistentVolumeClaimRetentionPolicy ??= { whenDeleted: 'Retain', whenScaled: 'Retain' };
});

export const statefulSet: Behaviour = {
  ...statefulSetDefaults,
  validate: (obj, old) => [...templateCauses(obj, old), ...statefulSetUpdateCauses(obj, old)],
};

export const daemonSet = templated((spec) => {
  spec.revisionHistoryLimit ??= 10;
  spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
});
