/**
 * How a failure becomes the op occ's `error` (a ProblemDetails): VIM errors keep the VIM's own
 * message and code, hook failures their output, grant refusals the NFVO's reason; every error
 * names the step it happened in.
 */
import { STATUS_CODES } from 'node:http';
import { HookError } from '../drivers/mgmt/hook-runner.ts';
import { GrantRefused } from '../grant/nfvo.ts';
import { ApiError, type ProblemDetails } from '../sol/problem.ts';
import { InfraError, type InfraErrorCode } from '../vims/contract.ts';

const INFRA_STATUS: Readonly<Record<InfraErrorCode, number>> = {
  NO_VALID_HOST: 503,
  VIM_UNAVAILABLE: 503,
  VIM_OPERATION_FAILED: 500,
  VIM_TIMEOUT: 504,
  NOT_FOUND: 404,
  INVALID_REQUEST: 422,
  CANCELLED: 409,
};

/** The operation was cancelled through POST …/cancel. */
export class CancelledError extends Error {
  readonly mode: string;
  constructor(mode: string) {
    super(`The operation was cancelled (${mode}).`);
    this.name = 'CancelledError';
    this.mode = mode;
  }
}

/** This worker lost its lease: another worker owns the op occ now; stop without writing. */
export class LeaseLost extends Error {
  constructor() {
    super('lease lost');
    this.name = 'LeaseLost';
  }
}

const problem = (status: number, detail: string, extra: Record<string, unknown> = {}): ProblemDetails => ({
  ...extra,
  status,
  title: STATUS_CODES[status] ?? 'Error',
  detail,
});

export function problemOf(err: unknown, step: string): ProblemDetails {
  if (err instanceof CancelledError)
    return problem(409, `${err.message} It stopped at step ${step}.`, { step, cancelMode: err.mode });
  if (err instanceof InfraError) {
    return problem(INFRA_STATUS[err.code] ?? 500, err.message, {
      step,
      infraErrorCode: err.code,
      ...(err.detail ? { infraDetail: err.detail } : {}),
    });
  }
  if (err instanceof HookError) {
    return { ...problem(422, err.message, { step, ...err.facts }), title: 'Mgmt driver execution failed' };
  }
  if (err instanceof GrantRefused)
    return problem(err.status, `The grant was refused: ${err.message}`, { step });
  if (err instanceof ApiError) return problem(err.status, err.detail, { step, ...err.extensions });
  return problem(500, `Step ${step} failed unexpectedly: ${(err as Error)?.message ?? String(err)}`, {
    step,
  });
}
