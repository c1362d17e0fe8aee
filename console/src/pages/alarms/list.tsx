/**
 * The alarms page (/vnffm/v1, the caller's project): newest first, filtered by severity and
 * acknowledgement, paged through the API; each alarm links to its instance, its VNFCs and the
 * heal it triggered, and is acknowledged or taken back with a PATCH.
 */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { Badge, type Tone } from '../../components/badge.tsx';
import { PagedList } from '../../components/paged-list.tsx';
import { ProblemBox } from '../../components/problem-box.tsx';
import { Link } from '../../router.tsx';
import { healNote, healOf } from './heal-link.ts';

interface Alarm {
  id: string;
  managedObjectId: string;
  vnfcInstanceIds?: string[];
  rootCauseFaultyResource: { faultyResource: { resourceId: string }; faultyResourceType: string };
  alarmRaisedTime: string;
  alarmClearedTime?: string;
  ackState: 'ACKNOWLEDGED' | 'UNACKNOWLEDGED';
  perceivedSeverity: string;
  probableCause: string;
  faultDetails?: string[];
}

const SEVERITY_TONES: Record<string, Tone> = {
  CRITICAL: 'bad',
  MAJOR: 'bad',
  MINOR: 'busy',
  WARNING: 'busy',
  INDETERMINATE: 'neutral',
  CLEARED: 'ok',
};

function listPath(severity: string, ack: string): string {
  const terms = [severity && `(eq,perceivedSeverity,${severity})`, ack && `(eq,ackState,${ack})`].filter(
    Boolean,
  );
  return `/vnffm/v1/alarms${terms.length ? `?filter=${encodeURIComponent(terms.join(';'))}` : ''}`;
}

function Select(props: {
  label: string;
  value: string;
  set: (v: string) => void;
  options: [string, string][];
}) {
  return (
    <label>
      {props.label}{' '}
      <select value={props.value} onChange={(e) => props.set((e.target as HTMLSelectElement).value)}>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

export function AlarmListPage() {
  const [severity, setSeverity] = useState('');
  const [ack, setAck] = useState('');
  const [error, setError] = useState<unknown>();
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState<string>();
  const [refresh, setRefresh] = useState(0);

  const toggle = async (alarm: Alarm) => {
    const ackState = alarm.ackState === 'ACKNOWLEDGED' ? 'UNACKNOWLEDGED' : 'ACKNOWLEDGED';
    setBusy(alarm.id);
    setError(undefined);
    try {
      await api(`/vnffm/v1/alarms/${encodeURIComponent(alarm.id)}`, { method: 'PATCH', json: { ackState } });
      setSaid(
        `Alarm ${alarm.id} ${ackState === 'ACKNOWLEDGED' ? 'acknowledged' : 'no longer acknowledged'}.`,
      );
      setRefresh((n) => n + 1);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(undefined);
    }
  };

  const columns = [
    {
      header: 'Severity',
      cell: (a: Alarm) => (
        <>
          <Badge tone={SEVERITY_TONES[a.perceivedSeverity] ?? 'neutral'}>{a.perceivedSeverity}</Badge>
          {a.alarmClearedTime && <Badge tone="ok">cleared</Badge>}
        </>
      ),
    },
    { header: 'Raised', cell: (a: Alarm) => a.alarmRaisedTime },
    {
      header: 'Instance and VNFCs',
      cell: (a: Alarm) => (
        <>
          <Link to={`/instances/${a.managedObjectId}`}>{a.managedObjectId}</Link>
          {(a.vnfcInstanceIds ?? []).map((v) => (
            <div key={v}>
              <Link to={`/instances/${a.managedObjectId}#vnfc-${v}`}>{v}</Link>
            </div>
          ))}
        </>
      ),
    },
    {
      header: 'Cause',
      cell: (a: Alarm) => (
        <>
          {a.probableCause}
          <div class="muted">
            {a.rootCauseFaultyResource.faultyResourceType}{' '}
            {a.rootCauseFaultyResource.faultyResource.resourceId}
          </div>
        </>
      ),
    },
    {
      header: 'Heal',
      cell: (a: Alarm) => {
        const heal = healOf(a.faultDetails);
        if (!heal) return 'none';
        return (
          <>
            <Link to={`/operations/${heal}`}>Heal {heal.slice(0, 8)}</Link>
            <div class="muted">{healNote(a.faultDetails)}</div>
          </>
        );
      },
    },
    {
      header: 'Acknowledged',
      cell: (a: Alarm) => (
        <>
          <span>{a.ackState === 'ACKNOWLEDGED' ? 'yes' : 'no'}</span>{' '}
          <button type="button" disabled={busy === a.id} data-alarm={a.id} onClick={() => toggle(a)}>
            {a.ackState === 'ACKNOWLEDGED' ? 'Unacknowledge' : 'Acknowledge'}
            <span class="visually-hidden"> alarm {a.id}</span>
          </button>
        </>
      ),
    },
  ];

  return (
    <section>
      <div class="toolbar">
        <h1>Alarms</h1>
        <span class="spacer" />
        <Select
          label="Severity"
          value={severity}
          set={setSeverity}
          options={[['', 'Any'], ...Object.keys(SEVERITY_TONES).map((s): [string, string] => [s, s])]}
        />
        <Select
          label="Acknowledged"
          value={ack}
          set={setAck}
          options={[
            ['', 'Either'],
            ['UNACKNOWLEDGED', 'No'],
            ['ACKNOWLEDGED', 'Yes'],
          ]}
        />
        <button type="button" onClick={() => setRefresh(refresh + 1)}>
          Refresh
        </button>
      </div>
      <p role="status" class="said">
        {said}
      </p>
      {error !== undefined && <ProblemBox error={error} />}
      <PagedList<Alarm>
        path={listPath(severity, ack)}
        columns={columns}
        rowKey={(a) => a.id}
        caption="Alarms, newest first"
        empty="No alarm."
        refresh={refresh}
      />
    </section>
  );
}
