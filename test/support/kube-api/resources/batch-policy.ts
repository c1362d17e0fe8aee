/**
 * Jobs (batch/v1) and PodDisruptionBudgets (policy/v1): their defaults and validation as the
 * real server's strategies fill and check them. Nothing runs a Job here (no controller): the
 * test server stores it, which is what a server-side dry run of a manifest needs.
 */
import type { Cause } from '../status.ts';
import type { Obj } from '../store.ts';
import type { Behaviour } from './behaviour.ts';
import { podSpecCauses, podSpecDefaults } from './pod.ts';
import { required } from './validation.ts';

const JOB_RESTART_POLICIES = ['OnFailure', 'Never'];

function jobCauses(obj: Obj): Cause[] {
  const spec = obj.spec ?? {};
  const causes: Cause[] = [];
  if (!spec.template) return [required('spec.template')];
  const restart = spec.template.spec?.restartPolicy;
  if (!JOB_RESTART_POLICIES.includes(restart)) {
    causes.push({
      field: 'spec.template.spec.restartPolicy',
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${JSON.stringify(restart)}: supported values: "OnFailure", "Never"`,
    });
  }
  for (const field of ['backoffLimit', 'parallelism', 'completions', 'activeDeadlineSeconds']) {
    if (typeof spec[field] === 'number' && spec[field] < 0) {
      causes.push({
        field: `spec.${field}`,
        message: `Invalid value: ${spec[field]}: must be greater than or equal to 0`,
      });
    }
  }
  causes.push(...podSpecCauses(spec.template.spec, 'spec.template.spec'));
  return causes;
}

export const job: Behaviour = {
  defaults(obj) {
    obj.spec ??= {};
    const spec = obj.spec;
    spec.parallelism ??= 1;
    spec.completions ??= 1;
    spec.backoffLimit ??= 6;
    spec.completionMode ??= 'NonIndexed';
    spec.suspend ??= false;
    spec.podReplacementPolicy ??= 'TerminatingOrFailed';
    if (!spec.template) return;
    // The real server also labels the template with the Job's uid (and selects by it); the uid is
    // given at storing here, after defaults, so only the name label is filled in.
    spec.template.metadata ??= {};
    spec.template.metadata.creationTimestamp ??= null;
    spec.template.metadata.labels = {
      ...spec.template.metadata.labels,
      'batch.kubernetes.io/job-name': obj.metadata.name,
    };
    podSpecDefaults(spec.template.spec);
  },
  validate: (obj, old) => (old ? [] : jobCauses(obj)),
  initialStatus: () => ({}),
};

export const podDisruptionBudget: Behaviour = {
  validate(obj) {
    const spec = obj.spec ?? {};
    if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
      return [
        {
          field: 'spec',
          message: `Invalid value: ${JSON.stringify(spec)}: minAvailable and maxUnavailable cannot be both set`,
        },
      ];
    }
    return [];
  },
  initialStatus: () => ({
    currentHealthy: 0,
    desiredHealthy: 0,
    disruptionsAllowed: 0,
    expectedPods: 0,
  }),
};
