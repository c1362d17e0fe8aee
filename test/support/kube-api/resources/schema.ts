/**
 * The fields each kind declares, as data, for `fieldValidation=Strict` (kubectl's default since
 * 1.27): a create or update naming a field the schema lacks is refused with 400 and the real
 * server's "strict decoding error", so a misspelt manifest fails here as it fails on a cluster.
 * A subtree written `OPEN` is not checked (volume sources, affinity, status: many fields, rarely
 * hand-written); a kind without a row here is not checked at all.
 */
import type { Kind } from '../kinds.ts';
import { StatusError } from '../status.ts';
import type { Obj } from '../store.ts';

/** A scalar, a map with any keys (labels), a subtree not checked, an object's fields, or a list. */
type Shape = 'scalar' | 'map' | 'open' | { fields: Record<string, Shape> } | { items: Shape };

const S = 'scalar';
const MAP = 'map';
const OPEN = 'open';
const obj = (fields: Record<string, Shape>): Shape => ({ fields });
const list = (items: Shape): Shape => ({ items });
const names = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, S as Shape]));

const METADATA = obj({
  ...names(
    'name',
    'generateName',
    'namespace',
    'selfLink',
    'uid',
    'resourceVersion',
    'generation',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
  ),
  labels: MAP,
  annotations: MAP,
  ownerReferences: OPEN,
  finalizers: list(S),
  managedFields: OPEN,
});

const SECCOMP = obj(names('type', 'localhostProfile'));

const CONTAINER_SECURITY = obj({
  capabilities: obj({ add: list(S), drop: list(S) }),
  ...names('privileged', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'readOnlyRootFilesystem'),
  ...names('allowPrivilegeEscalation', 'procMount'),
  seLinuxOptions: OPEN,
  windowsOptions: OPEN,
  seccompProfile: SECCOMP,
  appArmorProfile: SECCOMP,
});

const POD_SECURITY = obj({
  ...names('runAsUser', 'runAsGroup', 'runAsNonRoot', 'fsGroup', 'fsGroupChangePolicy'),
  ...names('supplementalGroupsPolicy', 'seLinuxChangePolicy'),
  supplementalGroups: list(S),
  sysctls: OPEN,
  seLinuxOptions: OPEN,
  windowsOptions: OPEN,
  seccompProfile: SECCOMP,
  appArmorProfile: SECCOMP,
});

const HTTP_GET = obj({ ...names('path', 'port', 'host', 'scheme'), httpHeaders: OPEN });
const HANDLER = {
  exec: obj({ command: list(S) }),
  httpGet: HTTP_GET,
  tcpSocket: obj(names('port', 'host')),
};
const PROBE = obj({
  ...HANDLER,
  grpc: obj(names('port', 'service')),
  ...names('initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold'),
  ...names('failureThreshold', 'terminationGracePeriodSeconds'),
});
const LIFECYCLE_HANDLER = obj({ ...HANDLER, sleep: obj(names('seconds')) });

const CONTAINER = obj({
  ...names('name', 'image', 'workingDir', 'terminationMessagePath', 'terminationMessagePolicy'),
  ...names('imagePullPolicy', 'restartPolicy', 'stdin', 'stdinOnce', 'tty'),
  command: list(S),
  args: list(S),
  ports: list(obj(names('containerPort', 'hostPort', 'hostIP', 'name', 'protocol'))),
  env: list(obj({ ...names('name', 'value'), valueFrom: OPEN })),
  envFrom: list(obj({ prefix: S, configMapRef: OPEN, secretRef: OPEN })),
  resources: obj({ limits: MAP, requests: MAP, claims: OPEN }),
  resizePolicy: OPEN,
  volumeMounts: list(
    obj(
      names(
        'name',
        'readOnly',
        'recursiveReadOnly',
        'mountPath',
        'subPath',
        'mountPropagation',
        'subPathExpr',
      ),
    ),
  ),
  volumeDevices: OPEN,
  livenessProbe: PROBE,
  readinessProbe: PROBE,
  startupProbe: PROBE,
  lifecycle: obj({ postStart: LIFECYCLE_HANDLER, preStop: LIFECYCLE_HANDLER }),
  securityContext: CONTAINER_SECURITY,
});

const POD_SPEC = obj({
  volumes: list(OPEN),
  initContainers: list(CONTAINER),
  containers: list(CONTAINER),
  ephemeralContainers: OPEN,
  ...names('restartPolicy', 'terminationGracePeriodSeconds', 'activeDeadlineSeconds', 'dnsPolicy'),
  ...names('serviceAccountName', 'serviceAccount', 'automountServiceAccountToken', 'nodeName'),
  ...names('hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'hostname', 'subdomain'),
  ...names('schedulerName', 'priorityClassName', 'priority', 'runtimeClassName', 'enableServiceLinks'),
  ...names('preemptionPolicy', 'setHostnameAsFQDN', 'hostUsers'),
  nodeSelector: MAP,
  securityContext: POD_SECURITY,
  imagePullSecrets: list(obj(names('name'))),
  affinity: OPEN,
  tolerations: OPEN,
  hostAliases: OPEN,
  dnsConfig: OPEN,
  readinessGates: OPEN,
  overhead: MAP,
  topologySpreadConstraints: OPEN,
  os: obj(names('name')),
  schedulingGates: OPEN,
  resourceClaims: OPEN,
  resources: obj({ limits: MAP, requests: MAP, claims: OPEN }),
});

const TEMPLATE = obj({ metadata: METADATA, spec: POD_SPEC });
const top = (fields: Record<string, Shape>): Shape =>
  obj({ apiVersion: S, kind: S, metadata: METADATA, status: OPEN, ...fields });

const SCHEMAS: Record<string, Shape> = {
  Namespace: top({ spec: obj({ finalizers: list(S) }) }),
  ConfigMap: top({ data: MAP, binaryData: MAP, immutable: S }),
  Secret: top({ data: MAP, stringData: MAP, type: S, immutable: S }),
  Service: top({
    spec: obj({
      ports: list(obj(names('name', 'protocol', 'appProtocol', 'port', 'targetPort', 'nodePort'))),
      selector: MAP,
      ...names('clusterIP', 'type', 'sessionAffinity', 'loadBalancerIP', 'externalName'),
      ...names('externalTrafficPolicy', 'healthCheckNodePort', 'publishNotReadyAddresses'),
      ...names('ipFamilyPolicy', 'allocateLoadBalancerNodePorts', 'loadBalancerClass'),
      ...names('internalTrafficPolicy', 'trafficDistribution'),
      clusterIPs: list(S),
      externalIPs: list(S),
      loadBalancerSourceRanges: list(S),
      ipFamilies: list(S),
      sessionAffinityConfig: OPEN,
    }),
  }),
  Deployment: top({
    spec: obj({
      ...names('replicas', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'progressDeadlineSeconds'),
      selector: OPEN,
      template: TEMPLATE,
      strategy: obj({ type: S, rollingUpdate: obj(names('maxSurge', 'maxUnavailable')) }),
    }),
  }),
  Job: top({
    spec: obj({
      ...names('parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit'),
      ...names('backoffLimitPerIndex', 'maxFailedIndexes', 'manualSelector', 'ttlSecondsAfterFinished'),
      ...names('completionMode', 'suspend', 'podReplacementPolicy', 'managedBy'),
      podFailurePolicy: OPEN,
      successPolicy: OPEN,
      selector: OPEN,
      template: TEMPLATE,
    }),
  }),
  PodDisruptionBudget: top({
    spec: obj({ ...names('minAvailable', 'maxUnavailable', 'unhealthyPodEvictionPolicy'), selector: OPEN }),
  }),
};

function unknown(value: unknown, shape: Shape, at: string, out: string[]): void {
  if (
    shape === 'open' ||
    shape === 'scalar' ||
    shape === 'map' ||
    value === null ||
    typeof value !== 'object'
  )
    return;
  if ('items' in shape) {
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) unknown(v, shape.items, `${at}[${i}]`, out);
    }
    return;
  }
  if (Array.isArray(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    const child = shape.fields[key];
    if (child === undefined) out.push(path);
    else unknown(v, child, path, out);
  }
}

/** The paths of the fields `body` sets that `kind`'s schema does not declare, in body order. */
export function unknownFields(kind: Kind, body: Obj): string[] {
  const shape = SCHEMAS[kind.kind];
  const out: string[] = [];
  if (shape) unknown(body, shape, '', out);
  return out;
}

/**
 * Under `fieldValidation=Strict`, the real server's 400 for a create or update whose body has
 * fields its schema lacks. Ignore and Warn accept the body (the real server drops the unknown
 * fields and, for Warn, sends a Warning header; here they are kept and no header is sent).
 */
export function checkStrictFields(kind: Kind, body: Obj, fieldValidation: string | null): void {
  if (fieldValidation !== 'Strict') return;
  const fields = unknownFields(kind, body);
  if (!fields.length) return;
  throw new StatusError(
    400,
    'BadRequest',
    `${kind.kind} in version "${kind.version}" cannot be handled as a ${kind.kind}: strict decoding error: ${fields
      .map((f) => `unknown field "${f}"`)
      .join(', ')}`,
  );
}
