/**
 * Modify an instance's name, description and metadata (PATCH, JSON merge patch) guarded by
 * the ETag it was read with: when someone changed the instance meanwhile Bosun answers 412, the
 * console says so and shows the instance as it now is, for the change to be made again.
 */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { ApiProblem, asProblem } from '../../api/problem.ts';
import { INSTANCES_PATH, type VnfInstance } from '../../api/sol/instances.ts';
import { ProblemBox } from '../../components/problem-box.tsx';
import { opOccPathOf } from './op-occ-tracker.ts';

const STALE =
  'Someone changed this instance after you opened it (412 Precondition Failed): it has been reloaded below. ' +
  'Check the new values and make your change again.';

function parseMetadata(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  const value = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('Metadata must be a JSON object.');
  return value;
}

/**
 * `onStarted(opOccPath)` once Bosun accepted the change (202: a MODIFY_INFO op occ applies it);
 * `onStale(problem)` when the instance had changed (412): the parent reloads it and renders a
 * fresh form (keyed by the new ETag) that shows `stale`.
 */
export function ModifyForm(props: {
  instance: VnfInstance;
  etag: string | undefined;
  stale?: ApiProblem;
  onStarted: (opOccPath: string | undefined) => void;
  onStale: (problem: ApiProblem) => void;
}) {
  const { instance } = props;
  const [name, setName] = useState(instance.vnfInstanceName ?? '');
  const [description, setDescription] = useState(instance.vnfInstanceDescription ?? '');
  const [metadata, setMetadata] = useState(JSON.stringify(instance.metadata ?? {}, null, 2));
  const [error, setError] = useState<ApiProblem | undefined>(props.stale);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    let patch: Record<string, unknown>;
    try {
      const wanted = parseMetadata(metadata);
      // Merge patch: keys removed from the text are deleted (null).
      const removed = Object.fromEntries(
        Object.keys(instance.metadata ?? {})
          .filter((k) => !(k in wanted))
          .map((k) => [k, null]),
      );
      patch = {
        vnfInstanceName: name,
        vnfInstanceDescription: description,
        metadata: { ...removed, ...wanted },
      };
    } catch (err) {
      setError(new ApiProblem({ status: 0, title: 'Invalid metadata', detail: (err as Error).message }));
      return;
    }
    setBusy(true);
    try {
      const res = await api(`${INSTANCES_PATH}/${encodeURIComponent(instance.id)}`, {
        method: 'PATCH',
        json: patch,
        ifMatch: props.etag,
      });
      setBusy(false);
      props.onStarted(opOccPathOf(res.headers.get('Location')));
    } catch (err) {
      setBusy(false);
      const problem = asProblem(err);
      if (problem.status === 412) {
        props.onStale(new ApiProblem({ ...problem.problem, detail: `${STALE} (${problem.problem.detail})` }));
      } else setError(problem);
    }
  };
  return (
    <form onSubmit={submit} aria-label="Modify the instance">
      {error && <ProblemBox error={error} />}
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
      <label>
        Metadata (JSON object)
        <textarea
          name="metadata"
          rows={4}
          value={metadata}
          onInput={(e) => setMetadata(e.currentTarget.value)}
        />
      </label>
      <button type="submit" class="primary" disabled={busy}>
        Save
      </button>
    </form>
  );
}
