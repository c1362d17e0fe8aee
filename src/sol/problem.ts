/**
 * ETSI SOL013 ProblemDetails: the one shape of every API error Bosun returns.
 * Code anywhere below the HTTP layer throws ApiError; the error handler renders it.
 */
import { STATUS_CODES } from 'node:http';

export interface ProblemDetails {
  type?: string;
  title?: string;
  status: number;
  detail: string;
  instance?: string;
  [extension: string]: unknown;
}

export const PROBLEM_JSON = 'application/problem+json';

export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  /** Extra response headers, e.g. Allow for 405, Retry-After for 503, WWW-Authenticate for 401. */
  readonly headers: Record<string, string>;
  readonly type: string | undefined;
  readonly extensions: Record<string, unknown>;

  constructor(
    status: number,
    detail: string,
    options: { headers?: Record<string, string>; type?: string; extensions?: Record<string, unknown> } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.headers = options.headers ?? {};
    this.type = options.type;
    this.extensions = options.extensions ?? {};
  }

  toProblem(instance?: string): ProblemDetails {
    const problem: ProblemDetails = {
      ...this.extensions,
      status: this.status,
      title: STATUS_CODES[this.status] ?? 'Error',
      detail: this.detail,
    };
    if (this.type) problem.type = this.type;
    if (instance) problem.instance = instance;
    return problem;
  }
}

export const badRequest = (detail: string) => new ApiError(400, detail);
export const notFound = (detail: string) => new ApiError(404, detail);
export const conflict = (detail: string) => new ApiError(409, detail);
export const unprocessable = (detail: string) => new ApiError(422, detail);
