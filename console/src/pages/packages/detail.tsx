/** One VNF package: its facts and states. */

import { PACKAGES_PATH, packageBadges, type VnfPkgInfo } from '../../api/sol/packages.ts';
import { Badge } from '../../components/badge.tsx';
import { ProblemBox } from '../../components/problem-box.tsx';
import { useApi } from '../../components/use-api.ts';
import type { PageProps } from '../routes.ts';

export function PackageDetailPage({ params }: PageProps) {
  const pkg = useApi<VnfPkgInfo>(`${PACKAGES_PATH}/${encodeURIComponent(params.id)}`);
  if (pkg.error) return <ProblemBox error={pkg.error} />;
  if (!pkg.data) return <p class="muted">Loading…</p>;
  const p = pkg.data;
  return (
    <section>
      <h1>{p.vnfProductName ?? p.id}</h1>
      <p>
        {packageBadges(p).map((b) => (
          <Badge key={b.label} tone={b.tone} title={b.title}>
            {b.label}
          </Badge>
        ))}
      </p>
      <dl class="facts card">
        <dt>Package id</dt>
        <dd>
          <code>{p.id}</code>
        </dd>
        <dt>VNFD id</dt>
        <dd>
          <code>{p.vnfdId ?? '—'}</code>
        </dd>
        <dt>Provider</dt>
        <dd>{p.vnfProvider ?? '—'}</dd>
        <dt>Software version</dt>
        <dd>{p.vnfSoftwareVersion ?? '—'}</dd>
      </dl>
    </section>
  );
}
