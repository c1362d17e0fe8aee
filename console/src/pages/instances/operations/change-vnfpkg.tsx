/** Change the VNF package: another onboarded, enabled package (its vnfdId) the caller may read. */
import { useState } from 'preact/hooks';
import { PACKAGES_PATH, type VnfPkgInfo } from '../../../api/sol/packages.ts';
import { ProblemBox } from '../../../components/problem-box.tsx';
import { useApi } from '../../../components/use-api.ts';
import type { OperationFormProps } from './types.ts';

const CANDIDATES = `${PACKAGES_PATH}?filter=${encodeURIComponent(
  '(eq,onboardingState,ONBOARDED);(eq,operationalState,ENABLED)',
)}&fields=vnfdId,vnfProductName,vnfSoftwareVersion`;

export function ChangeVnfpkgForm(props: OperationFormProps) {
  // The first page only: a form offers a choice, not a catalogue.
  const packages = useApi<VnfPkgInfo[]>(CANDIDATES);
  const others = (packages.data ?? []).filter((p) => p.vnfdId && p.vnfdId !== props.instance.vnfdId);
  const [vnfdId, setVnfdId] = useState('');
  if (packages.error) return <ProblemBox error={packages.error} />;
  if (!packages.data) return <p class="muted">Loading the packages…</p>;
  if (!others.length) return <p class="notice">No other onboarded, enabled VNF package.</p>;
  const chosen = vnfdId || others[0].vnfdId!;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.submit({ vnfdId: chosen });
      }}
    >
      <label>
        New package
        <select name="vnfdId" value={chosen} onChange={(e) => setVnfdId(e.currentTarget.value)}>
          {others.map((p) => (
            <option key={p.id} value={p.vnfdId}>
              {p.vnfProductName} {p.vnfSoftwareVersion} ({p.vnfdId})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="primary" disabled={props.busy}>
        Change package
      </button>
    </form>
  );
}
