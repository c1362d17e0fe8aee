/**
 * One VNF instance: its identity, state and VIM; the LCM operations its state allows (from its
 * `_links`), each through a form generated from the VNFD, followed until it ends; a topology
 * picture of what runs; modify (PATCH with If-Match) and delete.
 */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { type ApiProblem, asProblem } from '../../api/problem.ts';
import { INSTANCES_PATH, type VnfInstance, vimsOf } from '../../api/sol/instances.ts';
import { Badge } from '../../components/badge.tsx';
import { ProblemBox } from '../../components/problem-box.tsx';
import { useApi } from '../../components/use-api.ts';
import { Link, navigate } from '../../router.tsx';
import type { PageProps } from '../routes.ts';
import { ModifyForm } from './modify.tsx';
import { opOccPathOf, useOpOcc } from './op-occ-tracker.ts';
import { OPERATIONS } from './operations/index.ts';
import type { OperationSpec } from './operations/types.ts';
import { Topology } from './topology.tsx';
import { useVnfd } from './use-vnfd.ts';

const OP_TONE = { COMPLETED: 'ok', FAILED_TEMP: 'bad', FAILED: 'bad', ROLLED_BACK: 'off' } as const;

function Facts(props: { i: VnfInstance }) {
  const { i } = props;
  const info = i.instantiatedVnfInfo;
  return (
    <dl class="facts card">
      <dt>Instance id</dt>
      <dd>
        <code>{i.id}</code>
      </dd>
      <dt>Product</dt>
      <dd>
        {i.vnfProvider} {i.vnfProductName} {i.vnfSoftwareVersion}
      </dd>
      <dt>VNFD id</dt>
      <dd>
        <code>{i.vnfdId}</code>
      </dd>
      <dt>VIM</dt>
      <dd>{vimsOf(i)}</dd>
      {info && (
        <>
          <dt>Flavour</dt>
          <dd>{info.flavourId}</dd>
          <dt>VNF state</dt>
          <dd>{info.vnfState}</dd>
          <dt>Scale</dt>
          <dd>
            {(info.scaleStatus ?? [])
              .map((s) => {
                const max = info.maxScaleLevels?.find((m) => m.aspectId === s.aspectId)?.scaleLevel;
                return `${s.aspectId} ${s.scaleLevel}${max !== undefined ? ` of ${max}` : ''}`;
              })
              .join(', ') || '—'}
          </dd>
        </>
      )}
      {i.vnfInstanceDescription && (
        <>
          <dt>Description</dt>
          <dd>{i.vnfInstanceDescription}</dd>
        </>
      )}
    </dl>
  );
}

export function InstanceDetailPage({ params }: PageProps) {
  const path = `${INSTANCES_PATH}/${encodeURIComponent(params.id)}`;
  const instance = useApi<VnfInstance>(path);
  const vnfd = useVnfd(instance.data?.vnfdId);
  const [open, setOpen] = useState<OperationSpec | 'modify' | undefined>();
  const [opOccPath, setOpOccPath] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiProblem | undefined>();
  const [stale, setStale] = useState<ApiProblem | undefined>();
  const tracked = useOpOcc(opOccPath, () => void instance.reload());
  const i = instance.data;
  if (instance.error && !i) return <ProblemBox error={instance.error} />;
  if (!i) return <p class="muted">Loading…</p>;

  const info = i.instantiatedVnfInfo;
  const flavour = vnfd.model?.flavours.find((f) => f.flavourId === info?.flavourId);
  const running =
    tracked.opOcc !== undefined &&
    ['STARTING', 'PROCESSING', 'ROLLING_BACK'].includes(tracked.opOcc.operationState);
  const offered = OPERATIONS.filter((op) => i._links[op.link]);

  const start = async (op: OperationSpec, body: Record<string, unknown>) => {
    if (op.danger && !window.confirm(`${op.label} ${i.vnfInstanceName || i.id}?`)) return;
    setBusy(true);
    setError(undefined);
    try {
      const res = await api(`${path}/${op.path}`, { method: 'POST', json: body });
      setOpOccPath(opOccPathOf(res.headers.get('Location')));
      setOpen(undefined);
    } catch (err) {
      setError(asProblem(err));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!window.confirm(`Delete ${i.vnfInstanceName || i.id}?`)) return;
    try {
      await api(path, { method: 'DELETE' });
      navigate('/instances');
    } catch (err) {
      setError(asProblem(err));
    }
  };

  return (
    <section>
      <h1>{i.vnfInstanceName || i.id}</h1>
      <p>
        {i.instantiationState === 'INSTANTIATED' ? (
          <Badge tone="ok">instantiated</Badge>
        ) : (
          <Badge tone="neutral">not instantiated</Badge>
        )}
        {tracked.opOcc && (
          <Badge tone={OP_TONE[tracked.opOcc.operationState as keyof typeof OP_TONE] ?? 'busy'}>
            {`${tracked.opOcc.operation} ${tracked.opOcc.operationState}`}
          </Badge>
        )}
      </p>
      <div class="toolbar" role="toolbar" aria-label="Operations">
        {offered.map((op) => (
          <button
            key={op.link}
            type="button"
            class={op.danger ? 'danger' : undefined}
            aria-expanded={open === op}
            disabled={running || busy}
            onClick={() => setOpen(open === op ? undefined : op)}
          >
            {op.label}
          </button>
        ))}
        <button
          type="button"
          aria-expanded={open === 'modify'}
          onClick={() => setOpen(open === 'modify' ? undefined : 'modify')}
        >
          Modify
        </button>
        {i.instantiationState === 'NOT_INSTANTIATED' && (
          <button type="button" class="danger" disabled={running || busy} onClick={remove}>
            Delete
          </button>
        )}
        {running && <span class="muted">An operation is running: the other operations wait for it.</span>}
      </div>
      {error && <ProblemBox error={error} onDismiss={() => setError(undefined)} />}
      {tracked.error && <ProblemBox error={tracked.error} />}
      {tracked.opOcc?.error && tracked.opOcc.operationState !== 'COMPLETED' && (
        <ProblemBox
          error={{
            ...tracked.opOcc.error,
            title: `${tracked.opOcc.operation} ${tracked.opOcc.operationState}`,
          }}
        />
      )}
      {open && open !== 'modify' && (
        <section class="card" aria-label={open.label}>
          <h2>{open.label}</h2>
          {vnfd.error && (
            <p class="muted">
              The VNFD cannot be read ({vnfd.error.message}); the form offers what the instance shows.
            </p>
          )}
          {vnfd.loading ? (
            <p class="muted" role="status">
              Reading the VNFD…
            </p>
          ) : (
            <open.Form
              instance={i}
              model={vnfd.model}
              flavour={flavour}
              info={info}
              busy={busy}
              submit={(body) => void start(open, body)}
            />
          )}
        </section>
      )}
      {open === 'modify' && (
        <section class="card" aria-label="Modify">
          <h2>Modify</h2>
          <ModifyForm
            key={instance.etag}
            instance={i}
            etag={instance.etag}
            stale={stale}
            onStarted={(opOcc) => {
              setStale(undefined);
              setOpen(undefined);
              setOpOccPath(opOcc);
            }}
            onStale={(problem) => {
              setStale(problem);
              void instance.reload();
            }}
          />
        </section>
      )}
      <Facts i={i} />
      {info && (
        <section class="card" aria-labelledby="topology-heading">
          <h2 id="topology-heading">Topology</h2>
          <Topology info={info} />
        </section>
      )}
      {vnfd.pkgId && (
        <p class="muted">
          Package: <Link to={`/packages/${vnfd.pkgId}`}>{i.vnfProductName}</Link>
        </p>
      )}
    </section>
  );
}
