/**
 * One operation: what it is, its error (the ProblemDetails, with the zones it tried), the
 * retry / roll back / mark failed / cancel buttons its state allows, and its timeline, followed
 * live through the event stream (from the start, then from the last event after a task or a
 * dropped connection) until the operation is final.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { ApiProblem } from '../../api/problem.ts';
import { ProblemBox } from '../../components/problem-box.tsx';
import { useApi } from '../../components/use-api.ts';
import { Link } from '../../router.tsx';
import type { PageProps } from '../routes.ts';
import { OP_BUTTONS, type OpButton, RUNNING_STATES, taskBlocked } from './actions.ts';
import { authorizedFetch } from './authorized-fetch.ts';
import { followEvents } from './event-stream.ts';
import type { LcmMajor, OpOcc } from './list.tsx';
import { OpStateBadge } from './state-badge.tsx';
import { Timeline } from './timeline.tsx';
import { mergeEvents, type TimelineEvent } from './timeline-model.ts';

const opPath = (id: string, major: LcmMajor) => `/vnflcm/${major}/vnf_lcm_op_occs/${encodeURIComponent(id)}`;
/** The major the list said the op occ is in (see operationPath). */
const majorHere = (): LcmMajor =>
  new URLSearchParams(window.location.search).get('api') === 'v1' ? 'v1' : 'v2';
const eventsPath = (id: string) => `/bosun/v1/vnf_lcm_op_occs/${encodeURIComponent(id)}/events`;

type StreamTrouble = { message: string; final: boolean };

export function OperationDetailPage({ params }: PageProps) {
  const id = params.id;
  const major = majorHere();
  const op = useApi<OpOcc>(opPath(id, major));
  const [events, setEvents] = useState<TimelineEvent[]>([]);
  const [trouble, setTrouble] = useState<StreamTrouble>();
  const [error, setError] = useState<unknown>();
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);
  // Bumped after a task: the stream follows the operation again from its last event.
  const [round, setRound] = useState(0);
  const lastSeq = useRef(0);
  const reload = useRef(op.reload);
  reload.current = op.reload;

  useEffect(() => {
    const stop = new AbortController();
    void followEvents(eventsPath(id), {
      fetch: authorizedFetch,
      after: lastSeq.current || undefined,
      signal: stop.signal,
      onEvent: (message) => {
        let event: TimelineEvent;
        try {
          event = JSON.parse(message.data) as TimelineEvent;
        } catch {
          return;
        }
        if (typeof event.seq !== 'number') return;
        lastSeq.current = Math.max(lastSeq.current, event.seq);
        setEvents((known) => mergeEvents(known, [event]));
        setTrouble(undefined);
        // A state change is when the buttons change: read the op occ again.
        if (event.kind === 'state' || event.kind === 'error') void reload.current();
      },
      onError: (message, final) => setTrouble({ message, final }),
    }).then(() => {
      if (!stop.signal.aborted) void reload.current();
    });
    return () => stop.abort();
  }, [id, round]);

  const run = async (button: OpButton) => {
    setBusy(true);
    setError(undefined);
    try {
      await api(`${opPath(id, major)}/${button.task}`, { method: 'POST', json: button.body });
      setSaid(`${button.label}: asked.`);
      await op.reload();
      setRound((n) => n + 1);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const o = op.data;
  return (
    <section>
      <h1>
        {o ? o.operation : 'Operation'} <span class="muted">{id}</span>
      </h1>
      {op.error && <ProblemBox error={op.error} />}
      {o && (
        <>
          <dl class="facts">
            <dt>State</dt>
            <dd>
              <OpStateBadge state={o.operationState} />
              {o.isCancelPending && <span class="muted"> cancelling</span>}
              {RUNNING_STATES.includes(o.operationState) && <span class="muted"> running</span>}
            </dd>
            <dt>Instance</dt>
            <dd>
              <Link to={`/instances/${o.vnfInstanceId}`}>{o.vnfInstanceId}</Link>
            </dd>
            <dt>Started</dt>
            <dd>{o.startTime}</dd>
            <dt>State since</dt>
            <dd>{o.stateEnteredTime}</dd>
            <dt>Started by</dt>
            <dd>{o.isAutomaticInvocation ? 'Bosun (automatic)' : 'a request'}</dd>
          </dl>
          {o.error && (
            <ProblemBox
              error={
                new ApiProblem({
                  status: o.error.status ?? 0,
                  title: o.error.title,
                  detail: o.error.detail ?? '',
                })
              }
            />
          )}
          <fieldset class="toolbar tasks">
            <legend class="visually-hidden">Operation tasks</legend>
            {OP_BUTTONS.map((button, i) => {
              const blocked = taskBlocked(button.task, o);
              const why = `task-${i}`;
              return (
                <span key={button.label}>
                  <button
                    type="button"
                    disabled={busy || blocked !== undefined}
                    aria-describedby={why}
                    onClick={() => run(button)}
                  >
                    {button.label}
                  </button>
                  <span id={why} class="visually-hidden">
                    {blocked ?? `${button.label} ${button.does}.`}
                  </span>
                </span>
              );
            })}
          </fieldset>
          <p role="status" class="said">
            {said}
          </p>
        </>
      )}
      {error !== undefined && <ProblemBox error={error} />}
      <h2>Timeline</h2>
      {trouble && (
        <p class="notice" role="status">
          {trouble.final
            ? `No live timeline: ${trouble.message}`
            : `Live updates interrupted (${trouble.message}); reconnecting.`}
        </p>
      )}
      <Timeline events={events} />
    </section>
  );
}
