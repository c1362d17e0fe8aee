/**
 * A Kubernetes API server for tests. It is a test double: no real API server can be installed on
 * the machines the suite runs on, so this one stands in for it, and the fidelity test checks it
 * against the real `kubectl`.
 *
 * What it implements, following the real server: HTTPS with a CA made by the test, bearer-token
 * and client-certificate authentication; discovery and the OpenAPI v3 index kubectl reads; the
 * kinds Namespace, Node, Pod, Service, ConfigMap, Secret, ServiceAccount, PersistentVolumeClaim,
 * Event, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job and PodDisruptionBudget with
 * create, get, list (label and field selectors, paging), update, patch (JSON, merge, strategic merge, server-side apply with
 * managedFields and conflicts), delete (grace periods, Background/Foreground/Orphan propagation)
 * and watch (410 for a compacted resourceVersion); the status and scale subresources; errors as
 * Status objects shaped as the real ones; server-side Table printing for `kubectl get`; and
 * controllers for Deployments (ReplicaSets, RollingUpdate/Recreate), ReplicaSets, StatefulSets,
 * DaemonSets, pods (scheduled, then Running and Ready after a short delay) and garbage collection.
 * Server-side dry runs (`?dryRun=All`) answer and store nothing. Creates and updates under
 * `fieldValidation=Strict` (kubectl's default) refuse fields the kind's schema lacks, for the
 * kinds `resources/schema.ts` declares. Failures are injected through `cluster.failures` (image
 * pull errors, crash loops, quotas, unschedulable pods).
 *
 * What it does not: authorization (every authenticated client may do anything), admission
 * webhooks, CRDs, unknown-field validation of patches and of the kinds without a schema row,
 * protobuf bodies (so kubectl's typed commands such as `create namespace` get 415; use apply),
 * aggregated discovery, pod logs/exec/port-forward, running Jobs (they are stored only),
 * Ingresses, RBAC kinds, ControllerRevisions (StatefulSet and DaemonSet `rollout undo`),
 * proportional scaling of a Deployment mid-rollout, paused rollouts' conditions, readiness probes, resource requests in scheduling, watch bookmarks other than
 * the initial-events one, and persistence (everything is in memory).
 */

import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createOpensslCa } from '../openssl-ca.ts';
import { Cluster } from './cluster.ts';
import { Controllers, type Timing } from './controllers/index.ts';
import { addNode } from './nodes.ts';
import { createRoutes } from './routes.ts';
import { unauthorized } from './status.ts';

export interface KubeApiOptions extends Partial<Timing> {
  /** Node names (default one node, "node-1"). */
  nodes?: string[];
}

export interface KubeApi {
  /** https://127.0.0.1:PORT */
  url: string;
  token: string;
  /** The cluster CA (PEM) that issued the server and client certificates. */
  caPem: string;
  /** A client certificate and key (PEM) the server accepts, CN=bosun-test, O=system:masters. */
  clientCert: { cert: string; key: string };
  /** The cluster itself: its objects (`cluster.store`) and failure injection (`cluster.failures`). */
  cluster: Cluster;
  /** Controller bugs seen so far (tests may assert there are none). */
  controllerErrors: Error[];
  /** How many watch streams are open now (a test waits for its watcher to be listening). */
  openWatches(): number;
  /** Writes a kubeconfig for this server (token by default, or the client certificate) and returns its path. */
  kubeconfig(dir: string, auth?: 'token' | 'cert'): string;
  stop(): Promise<void>;
}

const DEFAULT_TIMING: Timing = { podStartMs: 100, podStopMs: 50, imagePullBackOffMs: 200 };

export async function startKubeApi(options: KubeApiOptions = {}): Promise<KubeApi> {
  const pki = createOpensslCa('bosun-kube-api-', 'ec');
  const ca = pki.ca('ca', {
    cn: 'kubernetes',
    days: 2,
    keyUsage: 'critical,keyCertSign,cRLSign,digitalSignature',
  });
  const server = pki.issue('apiserver', {
    cn: 'kube-apiserver',
    ca: 'ca',
    days: 2,
    extensions:
      'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc\n',
  });
  pki.openssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'client.key',
    '-out',
    'client.csr',
    '-subj',
    '/O=system:masters/CN=bosun-test',
  );
  writeFileSync(
    join(pki.dir, 'client.ext'),
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n',
  );
  pki.openssl(
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-set_serial',
    '7',
    '-days',
    '2',
    '-extfile',
    'client.ext',
    '-out',
    'client.pem',
  );
  const clientCert = {
    cert: readFileSync(join(pki.dir, 'client.pem'), 'utf8'),
    key: readFileSync(join(pki.dir, 'client.key'), 'utf8'),
  };
  const token = randomBytes(24).toString('hex');

  const cluster = new Cluster();
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) cluster.seedNamespace(ns);
  for (const [i, name] of (options.nodes ?? ['node-1']).entries()) addNode(cluster, name, i);
  const controllers = new Controllers(cluster, { ...DEFAULT_TIMING, ...options });

  let address = '';
  const routes = createRoutes(cluster, () => address);
  const https: Server = createServer(
    { key: server.key, cert: server.cert, ca: ca.cert, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (bearer !== token && !socket.authorized) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify(unauthorized().toStatus()));
        return;
      }
      void routes.handle(req, res);
    },
  );
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  const port = (https.address() as { port: number }).port;
  address = `127.0.0.1:${port}`;
  const url = `https://${address}`;

  return {
    url,
    token,
    caPem: ca.cert,
    clientCert,
    cluster,
    controllerErrors: controllers.errors,
    openWatches: () => routes.watches.size,
    kubeconfig(dir, auth = 'token') {
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const user =
        auth === 'token'
          ? { token }
          : { 'client-certificate-data': b64(clientCert.cert), 'client-key-data': b64(clientCert.key) };
      const file = join(dir, `kubeconfig-${auth}`);
      writeFileSync(
        file,
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name: 'test', cluster: { server: url, 'certificate-authority-data': b64(ca.cert) } }],
          users: [{ name: 'test', user }],
          contexts: [{ name: 'test', context: { cluster: 'test', user: 'test', namespace: 'default' } }],
          'current-context': 'test',
        }),
        { mode: 0o600 },
      );
      return file;
    },
    async stop() {
      controllers.stop();
      for (const res of routes.watches) res.destroy();
      https.closeAllConnections();
      await new Promise<void>((resolve) => https.close(() => resolve()));
      pki.cleanup();
    },
  };
}
