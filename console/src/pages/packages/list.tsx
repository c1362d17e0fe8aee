/** The VNF packages the caller's project may see, a page at a time, with their states. */
import { useState } from 'preact/hooks';
import { PACKAGES_PATH, packageBadges, type VnfPkgInfo } from '../../api/sol/packages.ts';
import { Badge } from '../../components/badge.tsx';
import { PagedList } from '../../components/paged-list.tsx';
import { Link } from '../../router.tsx';
import { UploadPanel } from './upload-panel.tsx';

const COLUMNS = [
  {
    header: 'Product',
    cell: (p: VnfPkgInfo) => <Link to={`/packages/${p.id}`}>{p.vnfProductName ?? p.id}</Link>,
  },
  { header: 'Provider', cell: (p: VnfPkgInfo) => p.vnfProvider ?? '—' },
  { header: 'Version', cell: (p: VnfPkgInfo) => p.vnfSoftwareVersion ?? '—' },
  {
    header: 'State',
    cell: (p: VnfPkgInfo) =>
      packageBadges(p).map((b) => (
        <Badge key={b.label} tone={b.tone} title={b.title}>
          {b.label}
        </Badge>
      )),
  },
  { header: 'VNFD id', cell: (p: VnfPkgInfo) => <code>{p.vnfdId ?? '—'}</code> },
];

export function PackageListPage() {
  const [refresh, setRefresh] = useState(0);
  const [uploading, setUploading] = useState(false);
  return (
    <section>
      <div class="toolbar">
        <h1>VNF packages</h1>
        <span class="spacer" />
        <button
          type="button"
          class="primary"
          aria-expanded={uploading}
          onClick={() => setUploading(!uploading)}
        >
          Upload package
        </button>
        <button type="button" onClick={() => setRefresh(refresh + 1)}>
          Refresh
        </button>
      </div>
      {uploading && <UploadPanel />}
      <PagedList<VnfPkgInfo>
        path={`${PACKAGES_PATH}?exclude_default&fields=onboardingFailureDetails`}
        columns={COLUMNS}
        rowKey={(p) => p.id}
        caption="VNF packages"
        empty="No VNF package yet: upload one."
        refresh={refresh}
      />
    </section>
  );
}
