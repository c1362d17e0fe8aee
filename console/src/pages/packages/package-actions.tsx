/**
 * Enable, disable and delete, offered as the API allows them (SOL005): the operational state
 * changes once the package is onboarded; only a DISABLED package that is NOT_IN_USE may be
 * deleted. A button the rules refuse is disabled with the reason beside it.
 */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { type ApiProblem, asProblem } from '../../api/problem.ts';
import { PACKAGES_PATH, type VnfPkgInfo } from '../../api/sol/packages.ts';
import { ProblemBox } from '../../components/problem-box.tsx';
import { navigate } from '../../router.tsx';

interface Action {
  label: string;
  /** Why the API would refuse it now; undefined when allowed. */
  refusal: (p: VnfPkgInfo) => string | undefined;
  run: (p: VnfPkgInfo) => Promise<void>;
  danger?: boolean;
  confirm?: string;
}

const path = (p: VnfPkgInfo) => `${PACKAGES_PATH}/${encodeURIComponent(p.id)}`;
const notOnboarded = (p: VnfPkgInfo) =>
  p.onboardingState === 'ONBOARDED' ? undefined : 'Only an onboarded package can be enabled or disabled.';

const ACTIONS: Action[] = [
  {
    label: 'Enable',
    refusal: (p) => notOnboarded(p) ?? (p.operationalState === 'ENABLED' ? 'Already enabled.' : undefined),
    run: async (p) => {
      await api(path(p), { method: 'PATCH', json: { operationalState: 'ENABLED' } });
    },
  },
  {
    label: 'Disable',
    refusal: (p) =>
      notOnboarded(p) ??
      (p.operationalState === 'DISABLED' ? 'Already disabled: new instances cannot use it.' : undefined),
    run: async (p) => {
      await api(path(p), { method: 'PATCH', json: { operationalState: 'DISABLED' } });
    },
  },
  {
    label: 'Delete',
    danger: true,
    confirm: 'Delete this VNF package and its content?',
    refusal: (p) => {
      if (p.onboardingState === 'UPLOADING' || p.onboardingState === 'PROCESSING')
        return 'Wait until onboarding ends.';
      if (p.operationalState !== 'DISABLED')
        return 'Disable it first: only a disabled package can be deleted.';
      if (p.usageState !== 'NOT_IN_USE') return 'VNF instances use it: terminate and delete them first.';
      return undefined;
    },
    run: async (p) => {
      await api(path(p), { method: 'DELETE' });
      navigate('/packages');
    },
  },
];

export function PackageActions(props: { pkg: VnfPkgInfo; onChanged: () => void }) {
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<ApiProblem | undefined>();
  const run = async (action: Action) => {
    if (action.confirm && !window.confirm(action.confirm)) return;
    setBusy(action.label);
    setError(undefined);
    try {
      await action.run(props.pkg);
      props.onChanged();
    } catch (err) {
      setError(asProblem(err));
      props.onChanged();
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <div>
      <div class="toolbar actions">
        {ACTIONS.map((action) => {
          const refusal = action.refusal(props.pkg);
          const id = `why-${action.label.toLowerCase()}`;
          return (
            <span key={action.label} class="action">
              <button
                type="button"
                class={action.danger ? 'danger' : undefined}
                disabled={refusal !== undefined || busy !== undefined}
                aria-describedby={refusal ? id : undefined}
                onClick={() => run(action)}
              >
                {busy === action.label ? `${action.label}…` : action.label}
              </button>
              {refusal && (
                <span id={id} class="why muted">
                  {refusal}
                </span>
              )}
            </span>
          );
        })}
      </div>
      {error && <ProblemBox error={error} onDismiss={() => setError(undefined)} />}
    </div>
  );
}
