/**
 * `kubeadm` and `kubectl` for the test nodes. A Kubernetes API server and kubeadm's node setup
 * cannot run on the test machine, so on each node (an sshd whose PATH has these scripts first)
 * they are small shell scripts that answer as the real tools do — `kubeadm init` and `join`
 * register the node, `kubeadm token create --print-join-command` prints a join command with a
 * fresh token and a sha256 CA hash, `kubeadm init phase upload-certs --upload-certs` ends with a
 * certificate key, `kubectl get nodes -o name`, `drain` and `delete node` act on the cluster's
 * node list, `kubectl config view --raw` prints the kubeconfig — keeping the cluster's state in
 * files of a shared folder (as the API server would), refusing a join with an unknown token, and
 * recording every call with the node's address in `calls.log`, which the tests read to assert
 * the exact commands and their order. A pattern in `fail` (and a count of matching calls to let
 * pass first) makes the matching call fail once, as a command failing half-way.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const COMMON = `#!/bin/sh
S="$K8S_TEST_STATE"
tool=$(basename "$0")
line="$BOSUN_TEST_NODE $tool $*"
echo "$line" >>"$S/calls.log"
if [ -s "$S/fail" ]; then
  pattern=$(sed -n 1p "$S/fail"); skip=$(sed -n 2p "$S/fail")
  case "$tool $*" in
    *"$pattern"*)
      if [ "\${skip:-0}" -gt 0 ]; then printf '%s\n%s\n' "$pattern" $((skip - 1)) >"$S/fail"
      else : >"$S/fail"; echo "error: $tool $1 failed (injected by the test)" >&2; exit 1; fi ;;
  esac
fi
hex() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \\n'; }
arg() { # the value after flag $1 in the remaining arguments
  flag=$1; shift
  while [ $# -gt 0 ]; do [ "$1" = "$flag" ] && { echo "$2"; return; }; shift; done
}
touch "$S/nodes" "$S/tokens"
`;

const KUBEADM = `${COMMON}
case "$1 $2 $3" in
  "init phase upload-certs")
    echo "[upload-certs] Storing the certificates in Secret \\"kubeadm-certs\\" in the \\"kube-system\\" Namespace"
    echo "[upload-certs] Using certificate key:"
    hex 32; echo
    exit 0 ;;
esac
case "$1" in
  init)
    node=$(arg --node-name "$@"); endpoint=$(arg --control-plane-endpoint "$@")
    if [ -s "$S/endpoint" ]; then echo "error execution phase preflight: a cluster already exists" >&2; exit 1; fi
    echo "$endpoint" >"$S/endpoint"
    echo "$node" >>"$S/nodes"
    printf 'apiVersion: v1\\nkind: Config\\nclusters:\\n- cluster:\\n    server: https://%s\\n  name: kubernetes\\nusers:\\n- name: kubernetes-admin\\n  user:\\n    token: %s\\n' "$endpoint" "$(hex 16)" >"$S/kubeconfig"
    echo "Your Kubernetes control-plane has initialized successfully!"
    ;;
  token)
    [ -s "$S/endpoint" ] || { echo "failed to load admin kubeconfig" >&2; exit 1; }
    token="$(hex 3).$(hex 8)"
    echo "$token" >>"$S/tokens"
    echo "kubeadm join $(cat "$S/endpoint") --token $token --discovery-token-ca-cert-hash sha256:$(hex 32)"
    ;;
  join)
    node=$(arg --node-name "$@"); token=$(arg --token "$@")
    grep -qx "$token" "$S/tokens" || { echo "error execution phase preflight: couldn't validate the identity of the API Server: token id is invalid" >&2; exit 1; }
    if grep -qx "$node" "$S/nodes"; then echo "error execution phase kubelet-start: a Node with name \\"$node\\" already exists" >&2; exit 1; fi
    echo "$node" >>"$S/nodes"
    echo "This node has joined the cluster"
    ;;
  *) echo "kubeadm (test): unknown command $*" >&2; exit 1 ;;
esac
`;

const KUBECTL = `${COMMON}
[ -s "$S/endpoint" ] || { echo "The connection to the server localhost:8080 was refused - did you specify the right host or port?" >&2; exit 1; }
case "$1 $2" in
  "get nodes") sed 's#^#node/#' "$S/nodes" ;;
  "config view") cat "$S/kubeconfig" ;;
  "delete node")
    grep -qx "$3" "$S/nodes" || { echo "Error from server (NotFound): nodes \\"$3\\" not found" >&2; exit 1; }
    grep -vx "$3" "$S/nodes" >"$S/nodes.new"; mv "$S/nodes.new" "$S/nodes"
    echo "node \\"$3\\" deleted" ;;
  "drain "*)
    grep -qx "$2" "$S/nodes" || { echo "Error from server (NotFound): nodes \\"$2\\" not found" >&2; exit 1; }
    echo "node/$2 cordoned"
    echo "Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-$(hex 3)"
    echo "evicting pod default/app-$(hex 4)"
    echo "pod/app evicted"
    echo "node/$2 drained" ;;
  *) echo "kubectl (test): unknown command $*" >&2; exit 1 ;;
esac
`;

/** Writes the two scripts into `dir/bin` (world-readable: the nodes' user runs them). */
export function writeKubeTools(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  for (const [name, text] of [
    ['kubeadm', KUBEADM],
    ['kubectl', KUBECTL],
  ] as const) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}
