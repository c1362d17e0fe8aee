/**
 * An API error as the console shows it: the ProblemDetails Bosun answered (status, title and the
 * detail that says what to do), or a problem made up here when no answer came.
 */
export interface ProblemDetails {
  status: number;
  title?: string;
  detail: string;
  type?: string;
  instance?: string;
  [extension: string]: unknown;
}

export class ApiProblem extends Error {
  readonly problem: ProblemDetails;

  constructor(problem: ProblemDetails) {
    super(problem.detail);
    this.name = 'ApiProblem';
    this.problem = problem;
  }

  get status(): number {
    return this.problem.status;
  }
}

/** The ProblemDetails of a failed response: its body when it is one, else a description of it. */
export function problemOf(status: number, statusText: string, body: unknown): ApiProblem {
  if (body && typeof body === 'object' && typeof (body as ProblemDetails).detail === 'string') {
    return new ApiProblem({ ...(body as ProblemDetails), status });
  }
  const text = typeof body === 'string' && body.trim() ? `: ${body.trim().slice(0, 300)}` : '';
  return new ApiProblem({
    status,
    title: statusText,
    detail: `Bosun answered ${status} ${statusText}${text}`,
  });
}

/** Any thrown value as a problem to show (a bug in the console is shown too, not swallowed). */
export function asProblem(err: unknown): ApiProblem {
  if (err instanceof ApiProblem) return err;
  return new ApiProblem({
    status: 0,
    title: 'Error',
    detail: err instanceof Error ? err.message : String(err),
  });
}
