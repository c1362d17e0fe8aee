/** Pods: the defaults the real server fills in a pod spec, its validation, and a new pod's status. */
import type { Cause } from '../status.ts';
import type { Obj } from '../store.ts';
import type { Behaviour } from './behaviour.ts';
import { asArray, required } from './validation.ts';

const pullPolicy = (image: string) => {
  const tag = /:([^/:@]+)$/.exec(image)?.[1];
  return !image.includes('@') && (!tag || tag === 'latest') ? 'Always' : 'IfNotPresent';
};

function containerDefaults(c: Obj): void {
  c.imagePullPolicy ??= pullPolicy(String(c.image ?? ''));
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.resources ??= {};
  for (const p of asArray(c.ports)) p.protocol ??= 'TCP';
}

/** A pod spec's defaults (a Pod's, or a workload's template's). */
export function podSpecDefaults(spec: Obj | undefined): void {
  if (!spec) return;
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  for (const c of [...asArray(spec.containers), ...asArray(spec.initContainers)]) containerDefaults(c);
  for (const v of asArray(spec.volumes)) {
    if (v.configMap) v.configMap.defaultMode ??= 420;
    if (v.secret) v.secret.defaultMode ??= 420;
  }
}

export function podSpecCauses(spec: Obj | undefined, at: string): Cause[] {
  const containers = asArray(spec?.containers);
  if (!containers.length) return [required(`${at}.containers`)];
  const causes: Cause[] = [];
  containers.forEach((c, i) => {
    if (!c.name) causes.push(required(`${at}.containers[${i}].name`));
    if (!c.image) causes.push(required(`${at}.containers[${i}].image`));
  });
  return causes;
}

/** What an update of a pod may change: images, the deadline, tolerations, and the binding to a node. */
function mutable(spec: Obj): Obj {
  const s = structuredClone(spec ?? {});
  for (const c of [...asArray(s.containers), ...asArray(s.initContainers)]) delete c.image;
  delete s.activeDeadlineSeconds;
  delete s.tolerations;
  delete s.nodeName;
  delete s.terminationGracePeriodSeconds;
  return s;
}

function podUpdateCauses(obj: Obj, old: Obj): Cause[] {
  if (JSON.stringify(mutable(obj.spec)) === JSON.stringify(mutable(old.spec))) return [];
  return [
    {
      field: 'spec',
      reason: 'FieldValueForbidden',
      message:
        'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    },
  ];
}

export const pod: Behaviour = {
  defaults(obj) {
    podSpecDefaults(obj.spec);
    obj.spec.enableServiceLinks ??= true;
    obj.spec.preemptionPolicy ??= 'PreemptLowerPriority';
    obj.spec.priority ??= 0;
    obj.spec.tolerations ??= [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ];
  },
  validate: (obj, old) => [...podSpecCauses(obj.spec, 'spec'), ...(old ? podUpdateCauses(obj, old) : [])],
  initialStatus: () => ({ phase: 'Pending', qosClass: 'BestEffort' }),
};
