/** Change flavour: only the VNFD's other flavours, with their instantiation levels. */
import { useState } from 'preact/hooks';
import type { OperationFormProps } from './types.ts';

export function ChangeFlavourForm(props: OperationFormProps) {
  const others = (props.model?.flavours ?? []).filter((f) => f.flavourId !== props.info?.flavourId);
  const [flavourId, setFlavourId] = useState(others[0]?.flavourId ?? '');
  const [levelId, setLevelId] = useState('');
  if (!props.model)
    return <p class="notice">The VNFD of this instance cannot be read, so its flavours are unknown.</p>;
  if (!others.length)
    return <p class="notice">The VNFD has no other flavour than {props.info?.flavourId}.</p>;
  const levels = others.find((f) => f.flavourId === flavourId)?.instantiationLevels;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.submit({ newFlavourId: flavourId, ...(levelId ? { instantiationLevelId: levelId } : {}) });
      }}
    >
      <label>
        New flavour
        <select name="newFlavourId" value={flavourId} onChange={(e) => setFlavourId(e.currentTarget.value)}>
          {others.map((f) => (
            <option key={f.flavourId} value={f.flavourId}>
              {f.flavourId}
            </option>
          ))}
        </select>
      </label>
      {levels?.levels.length ? (
        <label>
          Instantiation level
          <select
            name="instantiationLevelId"
            value={levelId}
            onChange={(e) => setLevelId(e.currentTarget.value)}
          >
            <option value="">the default{levels.defaultLevel ? ` (${levels.defaultLevel})` : ''}</option>
            {levels.levels.map((l) => (
              <option key={l.id} value={l.id}>
                {l.id}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button type="submit" class="primary" disabled={props.busy}>
        Change flavour
      </button>
    </form>
  );
}
