/** Create a VNF instance from an onboarded, enabled package: its VNFD, a name and a description. */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { type ApiProblem, asProblem } from '../../api/problem.ts';
import { INSTANCES_PATH, type VnfInstance } from '../../api/sol/instances.ts';
import { PACKAGES_PATH, type VnfPkgInfo } from '../../api/sol/packages.ts';
import { ProblemBox } from '../../components/problem-box.tsx';
import { useApi } from '../../components/use-api.ts';
import { navigate } from '../../router.tsx';

const USABLE = `${PACKAGES_PATH}?filter=${encodeURIComponent(
  '(eq,onboardingState,ONBOARDED);(eq,operationalState,ENABLED)',
)}&fields=vnfdId,vnfProductName,vnfSoftwareVersion,vnfProvider`;

export function CreateInstanceForm() {
  // The first page of usable packages: enough to choose from; more are a filter away in the API.
  const packages = useApi<VnfPkgInfo[]>(USABLE);
  const [vnfdId, setVnfdId] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const usable = (packages.data ?? []).filter((p) => p.vnfdId);
  const chosen = vnfdId || usable[0]?.vnfdId || '';
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const res = await api<VnfInstance>(INSTANCES_PATH, {
        method: 'POST',
        json: {
          vnfdId: chosen,
          ...(name.trim() ? { vnfInstanceName: name.trim() } : {}),
          ...(description.trim() ? { vnfInstanceDescription: description.trim() } : {}),
        },
      });
      navigate(`/instances/${res.body.id}`);
    } catch (err) {
      setError(asProblem(err));
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-label="Create a VNF instance">
      <h2>Create a VNF instance</h2>
      {packages.error && <ProblemBox error={packages.error} />}
      {packages.data && !usable.length && (
        <p class="notice">No onboarded, enabled VNF package: upload one first.</p>
      )}
      {usable.length > 0 && (
        <label>
          VNF package
          <select name="vnfdId" value={chosen} onChange={(e) => setVnfdId(e.currentTarget.value)}>
            {usable.map((p) => (
              <option key={p.id} value={p.vnfdId}>
                {p.vnfProvider} {p.vnfProductName} {p.vnfSoftwareVersion} ({p.vnfdId})
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Name
        <input
          name="vnfInstanceName"
          maxLength={255}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </label>
      <label>
        Description
        <input
          name="vnfInstanceDescription"
          maxLength={1024}
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
      </label>
      {error && <ProblemBox error={error} />}
      <button type="submit" class="primary" disabled={busy || !chosen}>
        Create
      </button>
    </form>
  );
}
