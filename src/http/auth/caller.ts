/** Who is calling: the identity every authorisation and project-isolation decision uses. */
export interface Caller {
  /** Client id or token subject. */
  subject: string;
  /** The project (tenant) the caller acts in; resources it creates belong to it. */
  project: string;
  scopes: ReadonlySet<string>;
  /** Admins see and touch every project's resources. */
  admin: boolean;
}

/** The caller when authentication is off: an administrator of the default project. */
export const ANONYMOUS_ADMIN: Caller = Object.freeze({
  subject: 'anonymous',
  project: 'default',
  scopes: new Set<string>(),
  admin: true,
});

/** The caller of a public route (health, metrics, token endpoint): no rights at all. */
export const PUBLIC_CALLER: Caller = Object.freeze({
  subject: 'public',
  project: '',
  scopes: new Set<string>(),
  admin: false,
});

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/** Project restriction for queries: undefined means "every project" (admin). */
export function visibleProject(caller: Caller): string | undefined {
  return caller.admin ? undefined : caller.project;
}

/** Whether the caller may see a resource owned by `project`. Foreign resources answer 404, not 403. */
export function canSee(caller: Caller, project: string): boolean {
  return caller.admin || caller.project === project;
}
