/**
 * Where a package's onboarding is, as steps that fill in while it happens (the page polls the
 * package): created, content uploaded, checked and read, onboarded — or the step that failed.
 */
import type { VnfPkgInfo } from '../../api/sol/packages.ts';

const STEPS = [
  'Package created',
  'Content uploaded',
  'Checked and read (manifest, hashes, signatures, VNFD)',
  'Onboarded',
] as const;

/** Steps done in each state, and the one being worked on. */
const PROGRESS: Record<VnfPkgInfo['onboardingState'], { done: number; current?: number }> = {
  CREATED: { done: 1 },
  UPLOADING: { done: 1, current: 1 },
  PROCESSING: { done: 2, current: 2 },
  ONBOARDED: { done: 4 },
  ERROR: { done: 1 },
};

export function OnboardingSteps(props: { pkg: VnfPkgInfo }) {
  const { onboardingState: state, onboardingFailureDetails: failure } = props.pkg;
  const progress = PROGRESS[state] ?? { done: 0 };
  // A package Bosun read and found wrong failed at the check; otherwise its content did not arrive.
  const failedAt = state === 'ERROR' ? (Array.isArray(failure?.diagnostics) ? 2 : 1) : undefined;
  const done = failedAt ?? progress.done;
  return (
    <ol class="steps" aria-label="Onboarding steps">
      {STEPS.map((label, i) => {
        const status =
          i === failedAt ? 'failed' : i < done ? 'done' : i === progress.current ? 'in progress' : 'to do';
        const cls = { failed: 'failed', done: 'done', 'in progress': 'current', 'to do': '' }[status];
        return (
          <li key={label} class={cls}>
            {label}
            <span class={status === 'in progress' ? 'muted' : 'visually-hidden'}> — {status}</span>
          </li>
        );
      })}
    </ol>
  );
}
