/**
 * The operations page: the LCM op occurrences of the caller's project (/vnflcm/v2, or Tacker's
 * /vnflcm/v1; newest first), filtered by state and operation, paged through the API; each opens
 * its live timeline.
 */
import { useState } from 'preact/hooks';
import { OPERATION_STATES, OPERATIONS } from '../../../../src/sol/lcm-operations.ts';
import { PagedList } from '../../components/paged-list.tsx';
import { Link } from '../../router.tsx';
import { OpStateBadge } from './state-badge.tsx';

export interface OpOcc {
  id: string;
  operation: string;
  operationState: string;
  stateEnteredTime: string;
  startTime: string;
  vnfInstanceId: string;
  isAutomaticInvocation: boolean;
  isCancelPending?: boolean;
  error?: { status?: number; title?: string; detail?: string };
  _links?: Record<string, { href: string } | undefined>;
}

/** The columns of a major's list; an operation links to its page in that major. */
const columnsOf = (major: LcmMajor) => [
  {
    header: 'Operation',
    cell: (op: OpOcc) => (
      <>
        <Link to={operationPath(op.id, major)}>
          {op.operation}
          <span class="visually-hidden"> {op.id}</span>
        </Link>
        {op.isAutomaticInvocation && <span class="muted"> (automatic)</span>}
      </>
    ),
  },
  { header: 'State', cell: (op: OpOcc) => <OpStateBadge state={op.operationState} /> },
  {
    header: 'Instance',
    cell: (op: OpOcc) => <Link to={`/instances/${op.vnfInstanceId}`}>{op.vnfInstanceId}</Link>,
  },
  { header: 'Started', cell: (op: OpOcc) => op.startTime },
  { header: 'State since', cell: (op: OpOcc) => op.stateEnteredTime },
];

/** The LCM API majors whose op occs the page lists: v2 (SOL003 v3.3.1) and Tacker's v1. */
export type LcmMajor = 'v2' | 'v1';
const MAJORS: readonly [LcmMajor, string][] = [
  ['v2', 'vnflcm v2'],
  ['v1', 'vnflcm v1 (Tacker v1)'],
];

/** An operation's console page; a v1 op occ says so in the query (ids are unique across majors). */
export const operationPath = (id: string, major: LcmMajor) =>
  `/operations/${id}${major === 'v1' ? '?api=v1' : ''}`;

function listPath(major: LcmMajor, state: string, operation: string): string {
  const terms = [state && `(eq,operationState,${state})`, operation && `(eq,operation,${operation})`].filter(
    Boolean,
  );
  return `/vnflcm/${major}/vnf_lcm_op_occs${terms.length ? `?filter=${encodeURIComponent(terms.join(';'))}` : ''}`;
}

function Choice(props: {
  label: string;
  value: string;
  set: (v: string) => void;
  options: readonly string[];
}) {
  return (
    <label>
      {props.label}{' '}
      <select value={props.value} onChange={(e) => props.set((e.target as HTMLSelectElement).value)}>
        <option value="">Any</option>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

export function OperationListPage() {
  const [major, setMajor] = useState<LcmMajor>('v2');
  const [state, setState] = useState('');
  const [operation, setOperation] = useState('');
  const [refresh, setRefresh] = useState(0);
  return (
    <section>
      <div class="toolbar">
        <h1>Operations</h1>
        <span class="spacer" />
        <label>
          API{' '}
          <select value={major} onChange={(e) => setMajor((e.target as HTMLSelectElement).value as LcmMajor)}>
            {MAJORS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <Choice label="State" value={state} set={setState} options={OPERATION_STATES} />
        <Choice label="Operation" value={operation} set={setOperation} options={OPERATIONS} />
        <button type="button" onClick={() => setRefresh(refresh + 1)}>
          Refresh
        </button>
      </div>
      <PagedList<OpOcc>
        path={listPath(major, state, operation)}
        columns={columnsOf(major)}
        rowKey={(op) => op.id}
        caption="Operation occurrences, newest first"
        empty="No operation."
        refresh={refresh}
      />
    </section>
  );
}
