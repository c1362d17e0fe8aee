/**
 * The nodes of the test cluster, as their kubelets would register them: labels, addresses (an
 * InternalIP each, which their pods' hostIP is), capacity, node info, and a Ready condition.
 */
import type { Cluster } from './cluster.ts';
import { mustKind } from './kinds.ts';
import { now, type Obj } from './store.ts';

const NODE = mustKind('Node');

export const nodeIp = (node: Obj | undefined): string =>
  (node?.status?.addresses ?? []).find((a: Obj) => a.type === 'InternalIP')?.address ?? '192.168.0.10';

export function addNode(cluster: Cluster, name: string, index: number): void {
  const created = cluster.create(
    NODE,
    undefined,
    {
      metadata: {
        name,
        labels: {
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
        },
      },
      spec: { podCIDR: `10.244.${index}.0/24` },
    },
    { manager: 'kubelet' },
  );
  const at = now();
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: at,
    lastTransitionTime: at,
    reason,
    message,
  });
  const resources = { cpu: '8', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  cluster.writeStatus(
    NODE,
    {
      ...created,
      status: {
        capacity: resources,
        allocatable: resources,
        conditions: [
          condition(
            'MemoryPressure',
            'False',
            'KubeletHasSufficientMemory',
            'kubelet has sufficient memory available',
          ),
          condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
          condition(
            'PIDPressure',
            'False',
            'KubeletHasSufficientPID',
            'kubelet has sufficient PID available',
          ),
          condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
        ],
        addresses: [
          { type: 'InternalIP', address: `192.168.0.${10 + index}` },
          { type: 'Hostname', address: name },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.32.0',
          kubeProxyVersion: 'v1.32.0',
          containerRuntimeVersion: 'containerd://1.7.24',
          operatingSystem: 'linux',
          architecture: 'amd64',
          osImage: 'Debian GNU/Linux 12 (bookworm)',
          kernelVersion: '6.1.0',
        },
      },
    },
    'kubelet',
  );
}
