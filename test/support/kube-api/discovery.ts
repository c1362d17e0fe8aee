/**
 * Discovery as kubectl reads it: /version, /api, /apis and each group version's resource list
 * (with the status and scale subresources, the scale one naming autoscaling/v1 Scale, which
 * `kubectl scale` resolves), and the OpenAPI v3 index and documents. kubectl validates a manifest
 * on the server when OpenAPI says PATCH takes `fieldValidation`, so each document declares that
 * for every kind; the schemas themselves are not served (no client-side validation or explain).
 */
import { apiVersionOf, KINDS } from './kinds.ts';
import type { Obj } from './store.ts';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-01-01T00:00:00Z',
  goVersion: 'go1.23.4',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const groupVersions = () => [...new Set(KINDS.map(apiVersionOf))];

export function apiVersions(serverAddress: string): Obj {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function apiGroupList(): Obj {
  const groups = [...new Set(KINDS.filter((k) => k.group).map((k) => k.group))].map((name) => {
    const versions = [...new Set(KINDS.filter((k) => k.group === name).map((k) => k.version))].map(
      (version) => ({
        groupVersion: `${name}/${version}`,
        version,
      }),
    );
    return { name, versions, preferredVersion: versions[0] };
  });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroup(name: string): Obj | undefined {
  return apiGroupList().groups.find((g: Obj) => g.name === name);
}

export function resourceList(groupVersion: string): Obj | undefined {
  const kinds = KINDS.filter((k) => apiVersionOf(k) === groupVersion);
  if (!kinds.length) return undefined;
  const resources: Obj[] = [];
  for (const k of kinds) {
    resources.push({
      name: k.plural,
      singularName: k.singular,
      namespaced: k.namespaced,
      kind: k.kind,
      verbs: VERBS,
      ...(k.shortNames ? { shortNames: k.shortNames } : {}),
      ...(k.categories ? { categories: k.categories } : {}),
    });
    for (const sub of k.subresources) {
      resources.push({
        name: `${k.plural}/${sub}`,
        singularName: '',
        namespaced: k.namespaced,
        ...(sub === 'scale' ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : { kind: k.kind }),
        verbs: ['get', 'patch', 'update'],
      });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}

const gvPath = (gv: string) => (gv.includes('/') ? `apis/${gv}` : `api/${gv}`);

export function openApiIndex(): Obj {
  const paths: Obj = {};
  for (const gv of groupVersions())
    paths[gvPath(gv)] = { serverRelativeURL: `/openapi/v3/${gvPath(gv)}?hash=${gv.replace('/', '-')}` };
  return { paths };
}

/** The OpenAPI v3 document of a group version: each item path's PATCH with its kind and parameters. */
export function openApiDocument(path: string): Obj | undefined {
  const gv = groupVersions().find((g) => gvPath(g) === path);
  if (!gv) return undefined;
  const paths: Obj = {};
  for (const k of KINDS.filter((x) => apiVersionOf(x) === gv)) {
    const base = `/${gvPath(gv)}${k.namespaced ? '/namespaces/{namespace}' : ''}/${k.plural}/{name}`;
    const gvk = { group: k.group, version: k.version, kind: k.kind };
    const query = (name: string) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });
    paths[base] = {
      get: {
        operationId: `read${k.kind}`,
        'x-kubernetes-action': 'get',
        'x-kubernetes-group-version-kind': gvk,
      },
      patch: {
        operationId: `patch${k.kind}`,
        parameters: [
          query('dryRun'),
          query('fieldManager'),
          query('fieldValidation'),
          { name: 'force', in: 'query', schema: { type: 'boolean', uniqueItems: true } },
        ],
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': gvk,
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: VERSION.gitVersion },
    paths,
    components: { schemas: {} },
  };
}
