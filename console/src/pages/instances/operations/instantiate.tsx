/**
 * Instantiate: the VNFD's flavours, the chosen flavour's instantiation levels (its default
 * preselected) and its external connection points — nothing the VNFD does not offer.
 */
import { useState } from 'preact/hooks';
import { ExtLinkFields, extVirtualLinks, type Networks } from './ext-links.tsx';
import type { OperationFormProps } from './types.ts';

export function InstantiateForm(props: OperationFormProps) {
  const flavours = props.model?.flavours ?? [];
  const [flavourId, setFlavourId] = useState(props.model?.vnf.flavourId ?? flavours[0]?.flavourId ?? '');
  const flavour = flavours.find((f) => f.flavourId === flavourId);
  const levels = flavour?.instantiationLevels;
  const [levelId, setLevelId] = useState<string>('');
  const [networks, setNetworks] = useState<Networks>({});
  if (!props.model)
    return <p class="notice">The VNFD of this instance cannot be read, so its flavours are unknown.</p>;
  const chosenLevel = levelId || levels?.defaultLevel || '';
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const links = extVirtualLinks(networks);
        props.submit({
          flavourId,
          ...(chosenLevel ? { instantiationLevelId: chosenLevel } : {}),
          ...(links.length ? { extVirtualLinks: links } : {}),
        });
      }}
    >
      <label>
        Deployment flavour
        <select
          name="flavourId"
          value={flavourId}
          onChange={(e) => {
            setFlavourId(e.currentTarget.value);
            setLevelId('');
          }}
        >
          {flavours.map((f) => (
            <option key={f.flavourId} value={f.flavourId}>
              {f.flavourId}
              {f.description ? ` — ${f.description}` : ''}
            </option>
          ))}
        </select>
      </label>
      {levels?.levels.length ? (
        <label>
          Instantiation level
          <select
            name="instantiationLevelId"
            value={chosenLevel}
            onChange={(e) => setLevelId(e.currentTarget.value)}
          >
            {levels.levels.map((l) => (
              <option key={l.id} value={l.id}>
                {l.id}
                {l.id === levels.defaultLevel ? ' (default)' : ''}:{' '}
                {Object.entries(l.vduInstances)
                  .map(([vdu, n]) => `${n} × ${vdu}`)
                  .join(', ')}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p class="muted">The flavour has no instantiation levels: each VDU starts at its initial number.</p>
      )}
      <ExtLinkFields extCps={flavour?.extCps ?? []} value={networks} onChange={setNetworks} />
      <button type="submit" class="primary" disabled={props.busy || !flavourId}>
        Instantiate
      </button>
    </form>
  );
}
