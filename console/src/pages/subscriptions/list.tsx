/**
 * The subscriptions page (admin): every subscription of every API (LCM v1/v2, packages v1/v2,
 * FM, PM) with its delivery state, paged through /bosun/v1/subscriptions; the one chosen shows
 * its dead notifications, the callback test and redeliver.
 */
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.tsx';
import { PagedList } from '../../components/paged-list.tsx';
import { type DeliveryStatus, SubscriptionDelivery } from './delivery.tsx';

export interface SubscriptionStatus {
  id: string;
  api: string;
  major: string;
  projectId: string;
  callbackUri: string;
  createdAt: string;
  delivery: DeliveryStatus;
}

const APIS: readonly [string, string][] = [
  ['', 'Every API'],
  ['vnflcm', 'VNF lifecycle (vnflcm v1, v2)'],
  ['vnfpkgm', 'VNF packages (vnfpkgm v1, v2)'],
  ['vnffm', 'Fault management (vnffm v1)'],
  ['vnfpm', 'Performance management (vnfpm v2)'],
];

export function SubscriptionListPage() {
  const [apiName, setApiName] = useState('');
  const [chosen, setChosen] = useState<string>();
  const [refresh, setRefresh] = useState(0);
  const columns = [
    {
      header: 'Callback',
      cell: (s: SubscriptionStatus) => (
        <button
          type="button"
          class="link-button"
          aria-pressed={s.id === chosen}
          aria-label={`Delivery to ${s.callbackUri}, subscription ${s.id}`}
          onClick={() => setChosen(s.id)}
        >
          {s.callbackUri}
        </button>
      ),
    },
    { header: 'API', cell: (s: SubscriptionStatus) => `${s.api} ${s.major}` },
    { header: 'Project', cell: (s: SubscriptionStatus) => s.projectId },
    { header: 'Delivered', cell: (s: SubscriptionStatus) => String(s.delivery.delivered) },
    { header: 'Queued', cell: (s: SubscriptionStatus) => String(s.delivery.pending) },
    {
      header: 'Dead',
      cell: (s: SubscriptionStatus) =>
        s.delivery.dead ? <Badge tone="bad">{String(s.delivery.dead)}</Badge> : '0',
    },
    { header: 'Last error', cell: (s: SubscriptionStatus) => s.delivery.lastError ?? '—' },
  ];
  return (
    <section>
      <div class="toolbar">
        <h1>Subscriptions</h1>
        <span class="spacer" />
        <label>
          API{' '}
          <select value={apiName} onChange={(e) => setApiName((e.target as HTMLSelectElement).value)}>
            {APIS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setRefresh(refresh + 1)}>
          Refresh
        </button>
      </div>
      <PagedList<SubscriptionStatus>
        path={`/bosun/v1/subscriptions${apiName ? `?api=${apiName}` : ''}`}
        columns={columns}
        rowKey={(s) => s.id}
        caption="Subscriptions and their delivery"
        empty="No subscription."
        refresh={refresh}
      />
      {chosen && <SubscriptionDelivery key={chosen} id={chosen} onChanged={() => setRefresh((n) => n + 1)} />}
    </section>
  );
}
