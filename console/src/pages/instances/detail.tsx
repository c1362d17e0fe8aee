/** One VNF instance: its identity and state. */
import { INSTANCES_PATH, type VnfInstance, vimsOf } from '../../api/sol/instances.ts';
import { ProblemBox } from '../../components/problem-box.tsx';
import { useApi } from '../../components/use-api.ts';
import type { PageProps } from '../routes.ts';

export function InstanceDetailPage({ params }: PageProps) {
  const instance = useApi<VnfInstance>(`${INSTANCES_PATH}/${encodeURIComponent(params.id)}`);
  if (instance.error) return <ProblemBox error={instance.error} />;
  if (!instance.data) return <p class="muted">Loading…</p>;
  const i = instance.data;
  return (
    <section>
      <h1>{i.vnfInstanceName || i.id}</h1>
      <dl class="facts card">
        <dt>Instance id</dt>
        <dd>
          <code>{i.id}</code>
        </dd>
        <dt>State</dt>
        <dd>{i.instantiationState}</dd>
        <dt>VIM</dt>
        <dd>{vimsOf(i)}</dd>
      </dl>
    </section>
  );
}
