/**
 * How every failure is shown: the ProblemDetails' detail (what happened and what to do), its
 * status and title, and any extension the API added (e.g. an onboarding error's location).
 */
import { type ApiProblem, asProblem } from '../api/problem.ts';

export function ProblemBox(props: { error: ApiProblem | unknown; onDismiss?: () => void }) {
  const { problem } = asProblem(props.error);
  const heading = problem.status
    ? `${problem.status} ${problem.title ?? ''}`.trim()
    : (problem.title ?? 'Error');
  return (
    <div class="problem" role="alert">
      <strong>{heading}</strong>
      <p class="problem-detail">{problem.detail}</p>
      {props.onDismiss && (
        <button type="button" class="link-button" onClick={props.onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}
