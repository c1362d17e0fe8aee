/**
 * The VIMs page (admin): every registered VIM, and for the one chosen its availability zones and
 * hosts with their free capacity, read live from the VIM (a VIM whose driver cannot tell says so
 * with the API's detail). On the simulated VIM, the fault-injection panel.
 */
import { useState } from 'preact/hooks';
import { ProblemBox } from '../../components/problem-box.tsx';
import { useApi } from '../../components/use-api.ts';
import { CapacityTable, type VimDescription } from './capacity-table.tsx';
import { FaultPanel, SIM_VIM_TYPE } from './fault-panel.tsx';

interface Vim {
  id: string;
  name: string;
  vimType: string;
  projectId: string;
  isDefault?: boolean;
}

export function VimListPage() {
  const vims = useApi<Vim[]>('/bosun/v1/vims');
  const [chosen, setChosen] = useState<string>();
  const list = vims.data ?? [];
  const vim = list.find((v) => v.id === chosen) ?? list[0];
  return (
    <section>
      <h1>VIMs</h1>
      {vims.error && <ProblemBox error={vims.error} />}
      {vims.data?.length === 0 && <p class="empty">No VIM is registered.</p>}
      {list.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">Registered VIMs</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Project</th>
                <th scope="col">Default</th>
              </tr>
            </thead>
            <tbody>
              {list.map((v) => (
                <tr key={v.id}>
                  <td data-label="Name">
                    <button
                      type="button"
                      class="link-button"
                      aria-pressed={v.id === vim?.id}
                      onClick={() => setChosen(v.id)}
                    >
                      {v.name}
                    </button>
                  </td>
                  <td data-label="Type">{v.vimType}</td>
                  <td data-label="Project">{v.projectId === '*' ? 'every project' : v.projectId}</td>
                  <td data-label="Default">{v.isDefault ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {vim && <VimResources key={vim.id} vim={vim} />}
    </section>
  );
}

function VimResources({ vim }: { vim: Vim }) {
  const resources = useApi<VimDescription>(`/bosun/v1/vims/${encodeURIComponent(vim.id)}/resources`);
  return (
    <section aria-labelledby="vim-resources">
      <h2 id="vim-resources">{vim.name}: zones, hosts and free capacity</h2>
      {resources.loading && !resources.data && <p class="muted">Asking the VIM…</p>}
      {resources.error && (
        <>
          <p>Zones and capacity: not reported.</p>
          <ProblemBox error={resources.error} />
        </>
      )}
      {resources.data && <CapacityTable description={resources.data} />}
      {vim.vimType === SIM_VIM_TYPE && <FaultPanel onChange={() => void resources.reload()} />}
    </section>
  );
}
