/**
 * The parts of Kubernetes objects Bosun reads, as TypeBox schemas: every answer is checked
 * against its schema before use, so a proxy's page or another API's answer fails naming the
 * call instead of being half read. Fields Bosun does not read are let through unchecked.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';

const Str = Type.String();
const Labels = Type.Record(Type.String(), Type.String());

export const ObjectMeta = Type.Object({
  name: Str,
  namespace: Type.Optional(Str),
  uid: Type.Optional(Str),
  resourceVersion: Type.Optional(Str),
  generation: Type.Optional(Type.Number()),
  creationTimestamp: Type.Optional(Str),
  deletionTimestamp: Type.Optional(Str),
  labels: Type.Optional(Labels),
  annotations: Type.Optional(Labels),
  ownerReferences: Type.Optional(
    Type.Array(
      Type.Object({
        kind: Str,
        name: Str,
        uid: Type.Optional(Str),
        controller: Type.Optional(Type.Boolean()),
      }),
    ),
  ),
});

/** Any object: kind, apiVersion, metadata, and the rest as it came. */
export const KubeObject = Type.Object({
  apiVersion: Type.Optional(Str),
  kind: Type.Optional(Str),
  metadata: ObjectMeta,
  spec: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  status: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type KubeObject = Static<typeof KubeObject>;

export const KubeList = <T extends TSchema>(item: T) =>
  Type.Object({
    metadata: Type.Optional(Type.Object({ resourceVersion: Type.Optional(Str) })),
    items: Type.Array(item),
  });

const ContainerState = Type.Object({
  waiting: Type.Optional(Type.Object({ reason: Type.Optional(Str), message: Type.Optional(Str) })),
  running: Type.Optional(Type.Object({ startedAt: Type.Optional(Str) })),
  terminated: Type.Optional(
    Type.Object({
      reason: Type.Optional(Str),
      message: Type.Optional(Str),
      exitCode: Type.Optional(Type.Number()),
    }),
  ),
});

export const Pod = Type.Object({
  metadata: ObjectMeta,
  spec: Type.Optional(
    Type.Object({
      nodeName: Type.Optional(Str),
      containers: Type.Optional(Type.Array(Type.Object({ name: Str, image: Type.Optional(Str) }))),
    }),
  ),
  status: Type.Optional(
    Type.Object({
      phase: Type.Optional(Str),
      qosClass: Type.Optional(Str),
      reason: Type.Optional(Str),
      message: Type.Optional(Str),
      conditions: Type.Optional(
        Type.Array(
          Type.Object({ type: Str, status: Str, reason: Type.Optional(Str), message: Type.Optional(Str) }),
        ),
      ),
      containerStatuses: Type.Optional(
        Type.Array(
          Type.Object({
            name: Str,
            ready: Type.Optional(Type.Boolean()),
            restartCount: Type.Optional(Type.Number()),
            image: Type.Optional(Str),
            state: Type.Optional(ContainerState),
          }),
        ),
      ),
    }),
  ),
});
export type Pod = Static<typeof Pod>;

export const Node = Type.Object({
  metadata: ObjectMeta,
  spec: Type.Optional(Type.Object({ unschedulable: Type.Optional(Type.Boolean()) })),
  status: Type.Optional(
    Type.Object({
      conditions: Type.Optional(Type.Array(Type.Object({ type: Str, status: Str }))),
      allocatable: Type.Optional(Type.Record(Type.String(), Type.String())),
    }),
  ),
});
export type Node = Static<typeof Node>;

export const KubeEvent = Type.Object({
  metadata: ObjectMeta,
  involvedObject: Type.Optional(Type.Object({ kind: Type.Optional(Str), name: Type.Optional(Str) })),
  reason: Type.Optional(Str),
  message: Type.Optional(Str),
  type: Type.Optional(Str),
  lastTimestamp: Type.Optional(Type.Union([Str, Type.Null()])),
});
export type KubeEvent = Static<typeof KubeEvent>;

export const Version = Type.Object({ major: Type.Optional(Str), minor: Type.Optional(Str), gitVersion: Str });
export type Version = Static<typeof Version>;

/** The API server's error body (metav1.Status). */
export const Status = Type.Object({
  kind: Type.Optional(Str),
  status: Type.Optional(Str),
  message: Type.Optional(Str),
  reason: Type.Optional(Str),
  code: Type.Optional(Type.Number()),
});
