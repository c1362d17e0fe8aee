/**
 * Server-side printing (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`): the columns
 * `kubectl get` shows are the server's, so each kind's columns are here as data, with the real
 * server's names and cell values (READY 2/2, STATUS Running or the waiting reason, AGE 42s).
 */
import type { Kind } from './kinds.ts';
import { selectorText } from './selectors.ts';
import type { Obj } from './store.ts';

/** Go's duration.HumanDuration, which AGE columns use. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 ? `${minutes}m${seconds % 60}s` : `${minutes}m`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 ? `${hours}h${minutes % 60}m` : `${hours}h`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 ? `${days}d${hours % 24}h` : `${days}d`;
  return `${days}d`;
}

const age = (o: Obj) => humanDuration(Date.now() - Date.parse(o.metadata.creationTimestamp));

type Column = [name: string, type: string, cell: (o: Obj) => unknown, priority?: number];

const NAME: Column = ['Name', 'string', (o) => o.metadata.name];
const AGE: Column = ['Age', 'string', age];

/**
 * The pod's STATUS as the real printer makes it: the phase, replaced by a container's waiting or
 * terminated reason, and Terminating while a deleted pod is not yet in a terminal phase.
 */
export function podStatus(o: Obj): string {
  let reason: string = o.status?.reason ?? o.status?.phase ?? 'Pending';
  if (reason === 'Pending' && o.spec?.nodeName && !o.status?.containerStatuses) reason = 'ContainerCreating';
  // From the last container to the first, so that the first one's reason is shown.
  for (const c of [...(o.status?.containerStatuses ?? [])].reverse()) {
    if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
    else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
  }
  const terminal = o.status?.phase === 'Succeeded' || o.status?.phase === 'Failed';
  if (o.metadata.deletionTimestamp && !terminal) return 'Terminating';
  return reason;
}

/** Ready or NotReady, with SchedulingDisabled for a cordoned node. */
function nodeStatus(o: Obj): string {
  const ready = (o.status?.conditions ?? []).find((c: Obj) => c.type === 'Ready')?.status === 'True';
  return `${ready ? 'Ready' : 'NotReady'}${o.spec?.unschedulable ? ',SchedulingDisabled' : ''}`;
}

/** RESTARTS: the count, and how long ago the last one ended when one did ("3 (12s ago)"). */
function restarts(o: Obj): string {
  const statuses: Obj[] = o.status?.containerStatuses ?? [];
  const n = statuses.reduce((sum, c) => sum + (c.restartCount ?? 0), 0);
  const last = Math.max(
    0,
    ...statuses.map((c) => Date.parse(c.lastState?.terminated?.finishedAt ?? '') || 0),
  );
  return last ? `${n} (${humanDuration(Date.now() - last)} ago)` : String(n);
}

const ports = (o: Obj) =>
  (o.spec?.ports ?? [])
    .map((p: Obj) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol}`)
    .join(',') || '<none>';

const COLUMNS: Record<string, Column[]> = {
  Pod: [
    NAME,
    [
      'Ready',
      'string',
      (o) =>
        `${(o.status?.containerStatuses ?? []).filter((c: Obj) => c.ready).length}/${o.spec?.containers?.length ?? 0}`,
    ],
    ['Status', 'string', podStatus],
    ['Restarts', 'string', restarts],
    AGE,
    ['IP', 'string', (o) => o.status?.podIP ?? '<none>', 1],
    ['Node', 'string', (o) => o.spec?.nodeName ?? '<none>', 1],
    ['Nominated Node', 'string', () => '<none>', 1],
    ['Readiness Gates', 'string', () => '<none>', 1],
  ],
  Deployment: [
    NAME,
    ['Ready', 'string', (o) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`],
    ['Up-to-date', 'integer', (o) => o.status?.updatedReplicas ?? 0],
    ['Available', 'integer', (o) => o.status?.availableReplicas ?? 0],
    AGE,
    ['Containers', 'string', (o) => o.spec.template.spec.containers.map((c: Obj) => c.name).join(','), 1],
    ['Images', 'string', (o) => o.spec.template.spec.containers.map((c: Obj) => c.image).join(','), 1],
    ['Selector', 'string', (o) => selectorText(o.spec.selector), 1],
  ],
  ReplicaSet: [
    NAME,
    ['Desired', 'integer', (o) => o.spec?.replicas ?? 0],
    ['Current', 'integer', (o) => o.status?.replicas ?? 0],
    ['Ready', 'integer', (o) => o.status?.readyReplicas ?? 0],
    AGE,
  ],
  StatefulSet: [
    NAME,
    ['Ready', 'string', (o) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`],
    AGE,
  ],
  DaemonSet: [
    NAME,
    ['Desired', 'integer', (o) => o.status?.desiredNumberScheduled ?? 0],
    ['Current', 'integer', (o) => o.status?.currentNumberScheduled ?? 0],
    ['Ready', 'integer', (o) => o.status?.numberReady ?? 0],
    ['Up-to-date', 'integer', (o) => o.status?.updatedNumberScheduled ?? 0],
    ['Available', 'integer', (o) => o.status?.numberAvailable ?? 0],
    [
      'Node Selector',
      'string',
      (o) =>
        Object.entries(o.spec?.template?.spec?.nodeSelector ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(',') || '<none>',
    ],
    AGE,
  ],
  Service: [
    NAME,
    ['Type', 'string', (o) => o.spec?.type],
    ['Cluster-IP', 'string', (o) => o.spec?.clusterIP ?? '<none>'],
    ['External-IP', 'string', (o) => (o.spec?.type === 'LoadBalancer' ? '<pending>' : '<none>')],
    ['Port(s)', 'string', ports],
    AGE,
  ],
  ConfigMap: [
    NAME,
    ['Data', 'integer', (o) => Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length],
    AGE,
  ],
  Secret: [
    NAME,
    ['Type', 'string', (o) => o.type],
    ['Data', 'integer', (o) => Object.keys(o.data ?? {}).length],
    AGE,
  ],
  Namespace: [NAME, ['Status', 'string', (o) => o.status?.phase], AGE],
  PersistentVolumeClaim: [
    NAME,
    ['Status', 'string', (o) => o.status?.phase],
    ['Volume', 'string', (o) => o.spec?.volumeName ?? ''],
    ['Capacity', 'string', (o) => o.status?.capacity?.storage ?? ''],
    [
      'Access Modes',
      'string',
      (o) =>
        (o.status?.accessModes ?? [])
          .map(
            (m: string) =>
              ({ ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' })[
                m
              ] ?? m,
          )
          .join(','),
    ],
    ['StorageClass', 'string', (o) => o.spec?.storageClassName ?? '<unset>'],
    AGE,
  ],
  Node: [
    NAME,
    ['Status', 'string', nodeStatus],
    [
      'Roles',
      'string',
      (o) =>
        Object.keys(o.metadata.labels ?? {})
          .filter((l) => l.startsWith('node-role.kubernetes.io/'))
          .map((l) => l.slice('node-role.kubernetes.io/'.length))
          .join(',') || '<none>',
    ],
    AGE,
    ['Version', 'string', (o) => o.status?.nodeInfo?.kubeletVersion ?? ''],
    [
      'Internal-IP',
      'string',
      (o) => (o.status?.addresses ?? []).find((a: Obj) => a.type === 'InternalIP')?.address ?? '<none>',
      1,
    ],
  ],
  Event: [
    ['Last Seen', 'string', (o) => humanDuration(Date.now() - Date.parse(o.lastTimestamp))],
    ['Type', 'string', (o) => o.type],
    ['Reason', 'string', (o) => o.reason],
    ['Object', 'string', (o) => `${String(o.involvedObject?.kind).toLowerCase()}/${o.involvedObject?.name}`],
    ['Message', 'string', (o) => o.message],
  ],
};

const DEFAULT: Column[] = [NAME, ['Created At', 'date', (o) => o.metadata.creationTimestamp]];

export function wantsTable(accept: string | undefined): boolean {
  return !!accept && /as=Table/.test(accept.split(',')[0] ?? '');
}

/** A Table of `objects` for `kind`; `includeObject` as the query asks (Metadata by default). */
export function toTable(
  kind: Kind,
  objects: Obj[],
  resourceVersion: string,
  includeObject = 'Metadata',
): Obj {
  const columns = COLUMNS[kind.kind] ?? DEFAULT;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion },
    columnDefinitions: columns.map(([name, type, , priority]) => ({
      name,
      type,
      format: name === 'Name' ? 'name' : '',
      description:
        name === 'Name' ? 'Name must be unique within a namespace.' : `${name} of the ${kind.singular}`,
      priority: priority ?? 0,
    })),
    rows: objects.map((o) => ({
      cells: columns.map(([, , cell]) => cell(o)),
      object:
        includeObject === 'Object'
          ? o
          : includeObject === 'None'
            ? undefined
            : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}
