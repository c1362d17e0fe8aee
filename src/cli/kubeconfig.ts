/**
 * A Kubernetes VIM's connection from a kubeconfig file (`bosun vim register --type kubernetes
 * --kubeconfig FILE [--context NAME]`): the context's cluster gives interfaceInfo.endpoint and
 * ssl_ca_cert, its user the credentials (a bearer token, or a client certificate and key) that
 * the server seals. Files the kubeconfig names are read relative to it. What Bosun cannot use —
 * an exec or auth-provider plugin, a skipped TLS verification — is refused by name.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parse } from 'yaml';
import { CliError } from './output.ts';

const Cluster = Type.Object({
  server: Type.String({ minLength: 1 }),
  'certificate-authority': Type.Optional(Type.String()),
  'certificate-authority-data': Type.Optional(Type.String()),
  'insecure-skip-tls-verify': Type.Optional(Type.Boolean()),
});

const User = Type.Object({
  token: Type.Optional(Type.String()),
  tokenFile: Type.Optional(Type.String()),
  'client-certificate': Type.Optional(Type.String()),
  'client-certificate-data': Type.Optional(Type.String()),
  'client-key': Type.Optional(Type.String()),
  'client-key-data': Type.Optional(Type.String()),
  exec: Type.Optional(Type.Unknown()),
  'auth-provider': Type.Optional(Type.Unknown()),
  username: Type.Optional(Type.String()),
});

const Kubeconfig = Type.Object({
  clusters: Type.Array(Type.Object({ name: Type.String(), cluster: Cluster })),
  users: Type.Array(Type.Object({ name: Type.String(), user: User })),
  contexts: Type.Array(
    Type.Object({
      name: Type.String(),
      context: Type.Object({
        cluster: Type.String(),
        user: Type.String(),
        namespace: Type.Optional(Type.String()),
      }),
    }),
  ),
  'current-context': Type.Optional(Type.String()),
});
type Kubeconfig = Static<typeof Kubeconfig>;

export interface KubeConnection {
  interfaceInfo: Record<string, unknown>;
  accessInfo: Record<string, unknown>;
  /** The context's namespace, if it names one (instantiate takes its own, additionalParams.namespace). */
  namespace?: string;
}

const MAX_BYTES = 1024 * 1024;

export function kubeconfigConnection(file: string, contextName?: string): KubeConnection {
  const fail = (what: string) => new CliError(`--kubeconfig ${file}: ${what}`);
  const read = (path: string, what: string): string => {
    const full = isAbsolute(path) ? path : join(dirname(file), path);
    try {
      return readFileSync(full, 'utf8');
    } catch (error) {
      throw fail(`${what} ${full}: ${(error as Error).message}`);
    }
  };
  const text = read(file, 'cannot read');
  if (text.length > MAX_BYTES) throw fail('larger than 1 MiB; is it a kubeconfig?');
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 50 });
  } catch (error) {
    throw fail(`not YAML: ${(error as Error).message}`);
  }
  if (!Value.Check(Kubeconfig, doc)) {
    const first = Value.Errors(Kubeconfig, doc).First();
    throw fail(`not a kubeconfig (${first ? `${first.path || '/'}: ${first.message}` : 'unexpected shape'})`);
  }
  const config: Kubeconfig = doc;
  const name = contextName ?? config['current-context'];
  if (!name) throw fail('it has no current-context; name one with --context');
  const context = config.contexts.find((c) => c.name === name)?.context;
  if (!context)
    throw fail(
      `it has no context ${name} (it has ${config.contexts.map((c) => c.name).join(', ') || 'none'})`,
    );
  const cluster = config.clusters.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster) throw fail(`context ${name} names cluster ${context.cluster}, which it does not define`);
  const user = config.users.find((u) => u.name === context.user)?.user;
  if (!user) throw fail(`context ${name} names user ${context.user}, which it does not define`);
  if (cluster['insecure-skip-tls-verify']) {
    throw fail(
      'cluster sets insecure-skip-tls-verify: Bosun always verifies the API server; give its CA (certificate-authority-data)',
    );
  }
  if (user.exec || user['auth-provider']) {
    throw fail(
      `user ${context.user} authenticates through a plugin (exec or auth-provider), which Bosun cannot run; use a ServiceAccount token or a client certificate`,
    );
  }
  const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
  const ca = cluster['certificate-authority-data']
    ? decode(cluster['certificate-authority-data'])
    : cluster['certificate-authority']
      ? read(cluster['certificate-authority'], 'cannot read certificate-authority')
      : undefined;
  const token =
    user.token ?? (user.tokenFile ? read(user.tokenFile, 'cannot read tokenFile').trim() : undefined);
  const cert = user['client-certificate-data']
    ? decode(user['client-certificate-data'])
    : user['client-certificate']
      ? read(user['client-certificate'], 'cannot read client-certificate')
      : undefined;
  const key = user['client-key-data']
    ? decode(user['client-key-data'])
    : user['client-key']
      ? read(user['client-key'], 'cannot read client-key')
      : undefined;
  if (!token && !(cert && key)) {
    throw fail(`user ${context.user} has neither a token nor a client certificate and key`);
  }
  return {
    interfaceInfo: { endpoint: cluster.server, ...(ca ? { ssl_ca_cert: ca } : {}) },
    accessInfo: token ? { bearer_token: token } : { client_cert: cert, client_key: key },
    ...(context.namespace ? { namespace: context.namespace } : {}),
  };
}
