/**
 * Adding and removing one node, each step checked first so that running it again after a crash
 * or a failure does only what is left: a master leaves HAProxy's rotation, Kubernetes and etcd
 * (found by name or peer URL), and joins etcd (`member add`, then started with
 * `--initial-cluster-state existing`), Kubernetes (`kubeadm join --control-plane`) and HAProxy
 * again; a worker is drained and deleted, or joined with a fresh token.
 */
import type { ClusterNode } from './cluster.ts';
import type { DriverContext } from './context.ts';
import { clientUrl, etcdCommands, initialCluster, listMembers, membersOf, peerUrl } from './etcd.ts';
import { putInRotation, takeOut } from './haproxy.ts';
import { haproxyNode } from './haproxy-node.ts';
import { certificateKey, joinSecrets, kubeadmCommands, nodeNames, removeNode } from './kubeadm.ts';
import { onNode } from './node-shell.ts';

/** A master out of the cluster, through `seed`: out of HAProxy's rotation, its node deleted, its etcd member removed. */
export async function removeMaster(
  ctx: DriverContext,
  seed: ClusterNode,
  master: ClusterNode,
  deleteServer = false,
) {
  const s = ctx.settings;
  await onNode(ctx, haproxyNode(ctx), (lb) => takeOut(lb, s, master.name, deleteServer));
  await onNode(ctx, seed, async (shell) => {
    await removeNode(shell, s, master.name, false);
    const endpoint = clientUrl(s, seed.nicAddress);
    const leaving = membersOf(await listMembers(shell, endpoint), master.name, peerUrl(s, master.nicAddress));
    for (const member of leaving) {
      // Never the member the commands go through.
      if (member.clientUrls.includes(endpoint)) continue;
      await shell.run(etcdCommands.memberRemove(endpoint, member.id));
    }
  });
}

/** A master into the cluster, through `seed`: etcd member, control-plane node, HAProxy server. */
export async function joinMaster(ctx: DriverContext, seed: ClusterNode, master: ClusterNode) {
  const s = ctx.settings;
  const peer = peerUrl(s, master.nicAddress);
  const prepared = await onNode(ctx, seed, async (shell) => {
    const endpoint = clientUrl(s, seed.nicAddress);
    let members = await listMembers(shell, endpoint);
    if (membersOf(members, master.name, peer).length === 0) {
      await shell.run(etcdCommands.memberAdd(endpoint, master.name, peer));
      members = await listMembers(shell, endpoint);
    }
    const mine = membersOf(members, master.name, peer);
    const listed = (await nodeNames(shell)).has(master.name);
    return {
      initialCluster: initialCluster(members, { name: master.name, peer }),
      // A member that never started has no data of its own yet: whatever the node holds is stale.
      fresh: !mine.some((m) => m.started),
      join: listed ? undefined : { secrets: await joinSecrets(shell), key: await certificateKey(shell) },
    };
  });
  await onNode(ctx, master, async (shell) => {
    await shell.run(
      etcdCommands.start(s, {
        name: master.name,
        address: master.nicAddress,
        initialCluster: prepared.initialCluster,
        state: 'existing',
        fresh: prepared.fresh,
      }),
    );
    if (prepared.join)
      await shell.run(
        kubeadmCommands.joinMaster(
          s,
          prepared.join.secrets,
          prepared.join.key,
          master.name,
          master.nicAddress,
        ),
      );
  });
  await onNode(ctx, haproxyNode(ctx), (lb) => putInRotation(lb, s, master.name, master.nicAddress));
}

/** The first master of a new cluster: a one-member etcd and `kubeadm init`. */
export async function bootstrapMaster(ctx: DriverContext, master: ClusterNode) {
  const s = ctx.settings;
  await onNode(ctx, master, async (shell) => {
    await shell.run(
      etcdCommands.start(s, {
        name: master.name,
        address: master.nicAddress,
        initialCluster: `${master.name}=${peerUrl(s, master.nicAddress)}`,
        state: 'new',
        fresh: false,
      }),
    );
    const listed = await shell.run(kubeadmCommands.nodes(), { allowFailure: true });
    if (listed.exitCode !== 0 || !listed.stdout.split('\n').includes(`node/${master.name}`))
      await shell.run(kubeadmCommands.init(s, master.name, master.nicAddress));
  });
}

/** A worker out of the cluster, through `seed`: drained (bounded), then deleted. */
export async function removeWorker(ctx: DriverContext, seed: ClusterNode, worker: ClusterNode) {
  await onNode(ctx, seed, (shell) => removeNode(shell, ctx.settings, worker.name, true));
}

/** Workers into the cluster, through `seed`, each with a fresh token; those already listed are left. */
export async function joinWorkers(ctx: DriverContext, seed: ClusterNode, workers: ClusterNode[]) {
  if (workers.length === 0) return;
  const s = ctx.settings;
  for (const worker of workers) {
    const secrets = await onNode(ctx, seed, async (shell) =>
      (await nodeNames(shell)).has(worker.name) ? undefined : joinSecrets(shell),
    );
    if (secrets)
      await onNode(ctx, worker, (shell) => shell.run(kubeadmCommands.joinWorker(s, secrets, worker.name)));
  }
}
