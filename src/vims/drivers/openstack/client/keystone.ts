/**
 * Keystone v3: the token request for password or application-credential auth scoped to a
 * project, and the service catalog it returns, read by service type, region and interface.
 */
import type { EndpointInterface, OpenStackCredentials } from './credentials.ts';

export interface CatalogEndpoint {
  interface: string;
  region_id?: string | null;
  region?: string | null;
  url: string;
}

export interface CatalogEntry {
  type: string;
  name?: string;
  endpoints: CatalogEndpoint[];
}

export interface Token {
  value: string;
  /** ms since the epoch. */
  expiresAt: number;
  projectId?: string;
  projectName?: string;
  userId?: string;
  roles: string[];
  catalog: CatalogEntry[];
}

/** The body of POST /v3/auth/tokens. */
export function tokenRequest(creds: OpenStackCredentials): Record<string, unknown> {
  const { auth } = creds;
  const domain = (name: string) => ({ name });
  const identity =
    auth.kind === 'password'
      ? {
          methods: ['password'],
          password: {
            user: { name: auth.username, password: auth.password, domain: domain(auth.userDomain) },
          },
        }
      : {
          methods: ['application_credential'],
          application_credential: auth.id
            ? { id: auth.id, secret: auth.secret }
            : {
                name: auth.name,
                secret: auth.secret,
                user: { name: auth.username, domain: domain(auth.userDomain) },
              },
        };
  // An application credential is bound to its project: Keystone refuses a scope beside it.
  if (auth.kind === 'application_credential' || !creds.project) return { auth: { identity } };
  const { project } = creds;
  const scope = project.id ? { id: project.id } : { name: project.name, domain: domain(project.domain) };
  return { auth: { identity, scope: { project: scope } } };
}

interface TokenBody {
  token?: {
    expires_at?: string;
    project?: { id?: string; name?: string };
    user?: { id?: string };
    roles?: { name?: string }[];
    catalog?: CatalogEntry[];
  };
}

/** The token from Keystone's answer (its value is the X-Subject-Token header). */
export function parseToken(value: string, body: unknown): Token {
  const token = (body as TokenBody).token ?? {};
  const expires = token.expires_at ? Date.parse(token.expires_at) : Number.NaN;
  return {
    value,
    // Keystone always says; without it, an hour (and a 401 renews it earlier).
    expiresAt: Number.isFinite(expires) ? expires : Date.now() + 3_600_000,
    projectId: token.project?.id,
    projectName: token.project?.name,
    userId: token.user?.id,
    roles: (token.roles ?? []).map((r) => r.name ?? '').filter(Boolean),
    catalog: Array.isArray(token.catalog) ? token.catalog : [],
  };
}

/** The URL of `type` in the catalog for the region and interface, or why there is none. */
export function findEndpoint(
  catalog: readonly CatalogEntry[],
  type: string,
  iface: EndpointInterface,
  region: string | undefined,
): { url: string } | { missing: string } {
  const entry = catalog.find((e) => e.type === type);
  if (!entry) {
    const types = catalog.map((e) => e.type).join(', ') || 'nothing';
    return { missing: `the catalog has no ${type} service (it has ${types})` };
  }
  const candidates = entry.endpoints.filter((e) => e.interface === iface);
  const inRegion = region
    ? candidates.filter((e) => (e.region_id ?? e.region) === region || e.region === region)
    : candidates;
  if (inRegion[0]) return { url: inRegion[0].url };
  const seen = entry.endpoints.map((e) => `${e.interface}@${e.region_id ?? e.region ?? '-'}`).join(', ');
  return {
    missing: `the catalog's ${type} service has no ${iface} endpoint${region ? ` in region ${region}` : ''} (it has ${seen})`,
  };
}
