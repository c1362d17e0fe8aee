/** Every kind's behaviour, by kind name (a kind without a row is stored as sent). */

import { job, podDisruptionBudget } from './batch-policy.ts';
import type { Behaviour } from './behaviour.ts';
import { namespace, persistentVolumeClaim, secret, service } from './core.ts';
import { pod } from './pod.ts';
import { daemonSet, deployment, replicaSet, statefulSet } from './workloads.ts';

export const BEHAVIOURS: Record<string, Behaviour> = {
  Namespace: namespace,
  Pod: pod,
  Service: service,
  Secret: secret,
  PersistentVolumeClaim: persistentVolumeClaim,
  Deployment: deployment,
  ReplicaSet: replicaSet,
  StatefulSet: statefulSet,
  DaemonSet: daemonSet,
  Job: job,
  PodDisruptionBudget: podDisruptionBudget,
};

export type { Allocator, Behaviour } from './behaviour.ts';
