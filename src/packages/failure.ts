/**
 * Why an onboarding failed, kept on the package as a ProblemDetails (v2
 * onboardingFailureDetails): the detail names the file and line of the first error; every
 * diagnostic is attached as an extension so nothing is lost.
 */
import type { ProblemDetails } from '../sol/problem.ts';
import { type Diagnostic, formatDiagnostic } from '../vnfd/diagnostics.ts';

export function failure(
  status: number,
  detail: string,
  extensions: Record<string, unknown> = {},
): ProblemDetails {
  const titles: Record<number, string> = {
    409: 'Conflict',
    413: 'Payload Too Large',
    422: 'Unprocessable Content',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
  };
  return { status, title: titles[status] ?? 'Error', detail, ...extensions };
}

/** The failure of an invalid package: its first error, then all diagnostics. */
export function invalidPackage(diagnostics: Diagnostic[]): ProblemDetails {
  const first = diagnostics.find((d) => d.severity === 'error');
  const detail = first
    ? `The VNF package is invalid: ${formatDiagnostic(first)}`
    : 'The VNF package is invalid.';
  return failure(422, detail, { diagnostics });
}

export const INTERRUPTED =
  'The upload was interrupted before the package content was complete; upload it again.';
