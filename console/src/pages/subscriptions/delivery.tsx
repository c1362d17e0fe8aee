/**
 * One subscription's delivery: its counters, the last error and when, the next attempt, its dead
 * notifications (paged) with why each died, the callback test and redeliver (enabled when
 * something is dead).
 */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { PagedList } from '../../components/paged-list.tsx';
import { ProblemBox } from '../../components/problem-box.tsx';
import { useApi } from '../../components/use-api.ts';
import type { SubscriptionStatus } from './list.tsx';
import './delivery.css';

export interface DeliveryStatus {
  delivered: number;
  pending: number;
  failing: number;
  dead: number;
  failedAttempts: number;
  lastError?: string;
  lastErrorAt?: string;
  lastDeliveredAt?: string;
  nextAttemptAt?: string;
}

interface Queued {
  seq: string;
  notificationId: string;
  notificationType: string;
  attempts: number;
  createdAt: string;
  lastError?: string;
}

const DEAD_COLUMNS = [
  { header: 'Type', cell: (n: Queued) => n.notificationType },
  { header: 'Notification id', cell: (n: Queued) => <code>{n.notificationId}</code> },
  { header: 'Created', cell: (n: Queued) => n.createdAt },
  { header: 'Attempts', cell: (n: Queued) => String(n.attempts) },
  { header: 'Why', cell: (n: Queued) => n.lastError ?? '—' },
];

const base = (id: string) => `/bosun/v1/subscriptions/${encodeURIComponent(id)}`;

export function SubscriptionDelivery({ id, onChanged }: { id: string; onChanged: () => void }) {
  const status = useApi<SubscriptionStatus>(base(id));
  const [error, setError] = useState<unknown>();
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);
  const [refresh, setRefresh] = useState(0);

  const act = async (what: 'redeliver' | 'test') => {
    setBusy(true);
    setError(undefined);
    try {
      const { body } = await api<{ redelivered?: number }>(`${base(id)}/${what}`, { method: 'POST' });
      const n = body?.redelivered ?? 0;
      setSaid(
        what === 'redeliver'
          ? `${n} dead notification${n === 1 ? '' : 's'} queued again.`
          : 'The callback test passed.',
      );
      await status.reload();
      setRefresh((r) => r + 1);
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const s = status.data;
  const d = s?.delivery;
  return (
    <section aria-labelledby="delivery" class="panel delivery">
      <h2 id="delivery">Delivery to {s?.callbackUri ?? id}</h2>
      {status.error && <ProblemBox error={status.error} />}
      {s && d && (
        <dl class="facts">
          <dt>API</dt>
          <dd>
            {s.api} {s.major}
          </dd>
          <dt>Delivered</dt>
          <dd>{d.delivered}</dd>
          <dt>Queued</dt>
          <dd>
            {d.pending}
            {d.failing ? ` (${d.failing} failing)` : ''}
          </dd>
          <dt>Dead</dt>
          <dd data-dead={d.dead}>{d.dead}</dd>
          <dt>Failed attempts</dt>
          <dd>{d.failedAttempts}</dd>
          <dt>Last error</dt>
          <dd>{d.lastError ? `${d.lastError} (${d.lastErrorAt})` : 'none'}</dd>
          <dt>Last delivery</dt>
          <dd>{d.lastDeliveredAt ?? 'never'}</dd>
          <dt>Next attempt</dt>
          <dd>{d.nextAttemptAt ?? '—'}</dd>
        </dl>
      )}
      <div class="toolbar">
        <button type="button" disabled={busy || !d?.dead} onClick={() => act('redeliver')}>
          Redeliver dead notifications
        </button>
        <button type="button" disabled={busy} onClick={() => act('test')}>
          Test the callback
        </button>
      </div>
      <p role="status" class="said">
        {said}
      </p>
      {error !== undefined && <ProblemBox error={error} />}
      <h3>Dead notifications</h3>
      <PagedList<Queued>
        path={`${base(id)}/notifications?filter=(eq,state,dead)`}
        columns={DEAD_COLUMNS}
        rowKey={(n) => n.seq}
        caption="Dead notifications"
        empty="No dead notification."
        refresh={refresh}
      />
    </section>
  );
}
