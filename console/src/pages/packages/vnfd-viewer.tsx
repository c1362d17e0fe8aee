/**
 * The VNFD of an onboarded package as Bosun read it: per deployment flavour its VDUs with their
 * instance ranges, connection points and virtual links, scaling aspects and their levels,
 * instantiation levels, affinity rules, hooks and images — each with the file:line it was
 * written at.
 */
import { useState } from 'preact/hooks';
import {
  type Flavour,
  type LcmOperation,
  type PlacementRule,
  type ScalingAspect,
  type SoftwareImage,
  type Vdu,
  type VnfdModel,
  where,
} from '../../api/sol/vnfd-model.ts';
import { bytes } from '../../components/format.ts';
import { Table } from '../../components/table.tsx';

const Where = (props: { loc: { file: string; line?: number } | undefined }) => (
  <code class="where muted">{where(props.loc)}</code>
);

function vduColumns(flavour: Flavour) {
  return [
    { header: 'VDU', cell: (v: Vdu) => <strong>{v.id}</strong> },
    { header: 'Name', cell: (v: Vdu) => v.name },
    {
      header: 'Instances',
      cell: (v: Vdu) =>
        `${v.vduProfile.minNumberOfInstances}–${v.vduProfile.maxNumberOfInstances}` +
        (flavour.initialDeltas[v.id] !== undefined ? ` (initial ${flavour.initialDeltas[v.id]})` : ''),
    },
    {
      header: 'Compute',
      cell: (v: Vdu) =>
        v.virtualCompute
          ? `${v.virtualCompute.numVirtualCpu ?? '?'} vCPU, ${bytes(v.virtualCompute.virtualMemSize)}`
          : '—',
    },
    { header: 'Image', cell: (v: Vdu) => v.swImageName ?? v.swImage ?? '—' },
    { header: 'Storage', cell: (v: Vdu) => v.virtualStorages.join(', ') || '—' },
    {
      header: 'Connection points',
      cell: (v: Vdu) =>
        flavour.vduCps
          .filter((cp) => cp.vdu === v.id)
          .map((cp) => `${cp.id}${cp.virtualLink ? ` → ${cp.virtualLink}` : ' (external)'}`)
          .join(', ') || '—',
    },
    { header: 'Written at', cell: (v: Vdu) => <Where loc={v.loc} /> },
  ];
}

const ASPECT_COLUMNS = (flavour: Flavour) => [
  { header: 'Aspect', cell: (a: ScalingAspect) => <strong>{a.id}</strong> },
  { header: 'Levels', cell: (a: ScalingAspect) => `0–${a.maxScaleLevel}` },
  {
    header: 'Each step adds',
    cell: (a: ScalingAspect) =>
      Object.entries(a.vduDeltas)
        .map(([vdu, deltas]) => `${deltas[a.stepDeltas[0]] ?? Object.values(deltas)[0] ?? 0} × ${vdu}`)
        .join(', ') || '—',
  },
  {
    header: 'Largest',
    cell: (a: ScalingAspect) =>
      Object.keys(a.vduDeltas)
        .map(
          (vdu) =>
            `${vdu} ≤ ${flavour.vdus.find((v) => v.id === vdu)?.vduProfile.maxNumberOfInstances ?? '?'}`,
        )
        .join(', '),
  },
  { header: 'Description', cell: (a: ScalingAspect) => a.description ?? a.name ?? '' },
];

const RULE_COLUMNS = [
  { header: 'Rule', cell: (r: PlacementRule) => r.name },
  { header: 'Kind', cell: (r: PlacementRule) => r.kind },
  { header: 'Scope', cell: (r: PlacementRule) => r.scope },
  { header: 'Members', cell: (r: PlacementRule) => r.members.join(', ') },
  { header: 'Written at', cell: (r: PlacementRule) => <Where loc={r.loc} /> },
];

const HOOK_COLUMNS = [
  { header: 'Operation', cell: (h: LcmOperation) => <code>{h.name}</code> },
  {
    header: 'Runs',
    cell: (h: LcmOperation) =>
      h.artifact
        ? `${h.artifact.path}${h.artifact.kind === 'host-path' ? ' (built-in driver on the Bosun host)' : ''}`
        : (h.implementation ?? 'nothing'),
  },
  { header: 'Declared on', cell: (h: LcmOperation) => h.node },
  { header: 'Written at', cell: (h: LcmOperation) => <Where loc={h.loc} /> },
];

export const IMAGE_COLUMNS = [
  { header: 'Image', cell: (i: SoftwareImage) => <strong>{i.id}</strong> },
  { header: 'Name', cell: (i: SoftwareImage) => `${i.name} ${i.version}` },
  { header: 'Format', cell: (i: SoftwareImage) => `${i.diskFormat}/${i.containerFormat}` },
  { header: 'Size', cell: (i: SoftwareImage) => bytes(i.size) },
  { header: 'Minimum', cell: (i: SoftwareImage) => `disk ${bytes(i.minDisk)}, RAM ${bytes(i.minRam)}` },
  { header: 'File', cell: (i: SoftwareImage) => <code>{i.imagePath}</code> },
];

function FlavourView(props: { flavour: Flavour }) {
  const f = props.flavour;
  const levels = f.instantiationLevels;
  return (
    <div class="flavour">
      <p class="muted">
        {f.description ? f.description.replace(/\.?$/, '.') : 'No description.'} Written in{' '}
        <code>{f.file}</code>.
      </p>
      <h3>VDUs</h3>
      <Table
        caption={`VDUs of flavour ${f.flavourId}`}
        columns={vduColumns(f)}
        rows={f.vdus}
        rowKey={(v) => v.id}
      />
      <h3>Virtual links and external connection points</h3>
      <ul>
        {f.virtualLinks.map((vl) => (
          <li key={vl.id}>
            <strong>{vl.id}</strong> (internal, {vl.layerProtocols.join(', ') || 'no protocol'}){' '}
            <Where loc={vl.loc} />
          </li>
        ))}
        {f.extCps.map((cp) => (
          <li key={cp.id}>
            <strong>{cp.id}</strong> (external CP
            {cp.internalVirtualLink ? ` exposing ${cp.internalVirtualLink}` : ''}) <Where loc={cp.loc} />
          </li>
        ))}
        {f.virtualLinks.length + f.extCps.length === 0 && <li class="muted">None.</li>}
      </ul>
      <h3>Scaling aspects</h3>
      {f.scalingAspects.length ? (
        <Table
          caption={`Scaling aspects of flavour ${f.flavourId}`}
          columns={ASPECT_COLUMNS(f)}
          rows={f.scalingAspects}
          rowKey={(a) => a.id}
        />
      ) : (
        <p class="muted">The flavour does not scale.</p>
      )}
      <h3>Instantiation levels</h3>
      {levels?.levels.length ? (
        <ul>
          {levels.levels.map((l) => (
            <li key={l.id}>
              <strong>{l.id}</strong>
              {l.id === levels.defaultLevel ? ' (default)' : ''}:{' '}
              {Object.entries(l.vduInstances)
                .map(([vdu, n]) => `${n} × ${vdu}`)
                .join(', ') || 'no VDU count'}
              {Object.keys(l.scaleInfo).length > 0 &&
                `; ${Object.entries(l.scaleInfo)
                  .map(([a, n]) => `${a} at level ${n}`)
                  .join(', ')}`}
              {l.description ? ` — ${l.description}` : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No instantiation levels: each VDU starts at its initial number of instances.</p>
      )}
      <h3>Affinity rules</h3>
      {f.placementRules.length ? (
        <Table
          caption={`Placement rules of flavour ${f.flavourId}`}
          columns={RULE_COLUMNS}
          rows={f.placementRules}
          rowKey={(r) => r.name}
        />
      ) : (
        <p class="muted">No affinity or anti-affinity rule.</p>
      )}
      <h3>Hooks</h3>
      {f.lcmOperations.length ? (
        <Table
          caption={`Hooks of flavour ${f.flavourId}`}
          columns={HOOK_COLUMNS}
          rows={f.lcmOperations}
          rowKey={(h) => h.name}
        />
      ) : (
        <p class="muted">No lifecycle hook.</p>
      )}
      <h3>Images</h3>
      {f.softwareImages.length ? (
        <Table
          caption={`Images of flavour ${f.flavourId}`}
          columns={IMAGE_COLUMNS}
          rows={f.softwareImages}
          rowKey={(i) => i.id}
        />
      ) : (
        <p class="muted">The flavour's VDUs name images the VIM must already have.</p>
      )}
    </div>
  );
}

export function VnfdViewer(props: { model: VnfdModel }) {
  const { model } = props;
  const [flavourId, setFlavourId] = useState(model.flavours[0]?.flavourId);
  const flavour = model.flavours.find((f) => f.flavourId === flavourId);
  return (
    <section class="card" aria-labelledby="vnfd-heading">
      <h2 id="vnfd-heading">VNFD</h2>
      <dl class="facts">
        <dt>Descriptor</dt>
        <dd>
          <code>{model.vnf.descriptorId}</code> version {model.vnf.descriptorVersion}{' '}
          <Where loc={model.vnf.loc} />
        </dd>
        <dt>Entry definitions</dt>
        <dd>
          <code>{model.entryDefinitions}</code>
        </dd>
      </dl>
      <div class="tabs" role="tablist" aria-label="Deployment flavours">
        {model.flavours.map((f) => (
          <button
            key={f.flavourId}
            type="button"
            role="tab"
            aria-selected={f.flavourId === flavourId}
            class={f.flavourId === flavourId ? 'tab selected' : 'tab'}
            onClick={() => setFlavourId(f.flavourId)}
          >
            Flavour {f.flavourId}
          </button>
        ))}
      </div>
      {flavour && (
        <div role="tabpanel" aria-label={`Flavour ${flavour.flavourId}`}>
          <FlavourView flavour={flavour} />
        </div>
      )}
    </section>
  );
}
