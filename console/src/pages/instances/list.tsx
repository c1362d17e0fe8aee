/** The VNF instances the caller's project may see, a page at a time, with state and VIM. */
import { useState } from 'preact/hooks';
import { INSTANCES_PATH, type VnfInstance, vimsOf } from '../../api/sol/instances.ts';
import { Badge } from '../../components/badge.tsx';
import { PagedList } from '../../components/paged-list.tsx';
import { Link } from '../../router.tsx';
import { CreateInstanceForm } from './create-form.tsx';

const COLUMNS = [
  {
    header: 'Name',
    cell: (i: VnfInstance) => <Link to={`/instances/${i.id}`}>{i.vnfInstanceName || i.id}</Link>,
  },
  { header: 'Product', cell: (i: VnfInstance) => `${i.vnfProductName} ${i.vnfSoftwareVersion}` },
  {
    header: 'State',
    cell: (i: VnfInstance) =>
      i.instantiationState === 'INSTANTIATED' ? (
        <Badge tone="ok">instantiated</Badge>
      ) : (
        <Badge tone="neutral">not instantiated</Badge>
      ),
  },
  { header: 'Flavour', cell: (i: VnfInstance) => i.instantiatedVnfInfo?.flavourId ?? '—' },
  { header: 'VIM', cell: (i: VnfInstance) => vimsOf(i) },
];

export function InstanceListPage() {
  const [refresh, setRefresh] = useState(0);
  const [creating, setCreating] = useState(false);
  return (
    <section>
      <div class="toolbar">
        <h1>VNF instances</h1>
        <span class="spacer" />
        <button type="button" class="primary" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          Create instance
        </button>
        <button type="button" onClick={() => setRefresh(refresh + 1)}>
          Refresh
        </button>
      </div>
      {creating && <CreateInstanceForm />}
      <PagedList<VnfInstance>
        path={`${INSTANCES_PATH}?fields=vimConnectionInfo,instantiatedVnfInfo/flavourId`}
        columns={COLUMNS}
        rowKey={(i) => i.id}
        caption="VNF instances"
        empty="No VNF instance yet."
        refresh={refresh}
      />
    </section>
  );
}
