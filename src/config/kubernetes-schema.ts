/**
 * The `kubernetes` configuration keys: how long the Kubernetes driver waits for a rollout, how
 * much of a package's manifests it reads, which kinds beyond the namespaced workload kinds it
 * may apply, where the `helm` binary is (for Helm charts), and how often instances are synced with their pods.
 * Its own file so the schema's other sections stay short.
 */
import { Type } from '@sinclair/typebox';

export const KubernetesConfigSchema = Type.Object(
  {
    rolloutTimeoutMs: Type.Integer({
      minimum: 1000,
      default: 500000,
      description: 'longest wait for applied workloads to be ready (or deleted) before the operation fails',
    }),
    pollIntervalMs: Type.Integer({
      minimum: 10,
      default: 2000,
      description: 'wait between two looks at a rollout in progress',
    }),
    maxManifestBytes: Type.Integer({
      minimum: 1024,
      default: 1048576,
      description: 'largest manifest file (or rendered Helm manifest) read from a package',
    }),
    maxObjects: Type.Integer({
      minimum: 1,
      default: 200,
      description: 'most Kubernetes objects one instance may apply',
    }),
    allowKinds: Type.Array(Type.String({ minLength: 1, maxLength: 63 }), {
      default: [],
      description:
        'kinds beyond the namespaced workload, service, config and storage kinds that packages may apply (e.g. ClusterRoleBinding); each grants what the kind grants',
    }),
    helmPath: Type.String({
      default: 'helm',
      description:
        'the helm binary (Helm 3; a name on PATH or a path) that installs, upgrades, rolls back and uninstalls the charts of Helm requests (additionalParams.helm_chart_path); requests with a chart fail, saying so, when it is missing',
    }),
    syncIntervalMs: Type.Integer({
      minimum: 0,
      default: 300000,
      description: 'how often instances on Kubernetes are compared with their pods (0: only on demand)',
    }),
    defaultGracefulTimeoutS: Type.Integer({
      minimum: 0,
      default: 10,
      description: 'grace period of a GRACEFUL terminate that names no timeout',
    }),
  },
  { additionalProperties: false, default: {} },
);
