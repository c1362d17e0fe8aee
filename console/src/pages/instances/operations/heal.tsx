/** Heal: the instance's VNFCs to heal (none chosen heals the whole VNF), and a cause. */
import { useState } from 'preact/hooks';
import type { OperationFormProps } from './types.ts';

export function HealForm(props: OperationFormProps) {
  const vnfcs = props.info?.vnfcInfo ?? [];
  const [chosen, setChosen] = useState<string[]>([]);
  const [cause, setCause] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.submit({
          ...(chosen.length ? { vnfcInstanceId: chosen } : {}),
          ...(cause.trim() ? { cause: cause.trim() } : {}),
        });
      }}
    >
      <fieldset>
        <legend>VNFCs to heal (none: the whole VNF)</legend>
        {vnfcs.map((v) => (
          <label key={v.id} class="inline">
            <input
              type="checkbox"
              name="vnfcInstanceId"
              value={v.id}
              checked={chosen.includes(v.id)}
              onChange={(e) =>
                setChosen(e.currentTarget.checked ? [...chosen, v.id] : chosen.filter((c) => c !== v.id))
              }
            />
            {v.vduId} <code>{v.id}</code> ({v.vnfcState})
          </label>
        ))}
      </fieldset>
      <label>
        Cause
        <input name="cause" maxLength={1024} value={cause} onInput={(e) => setCause(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary" disabled={props.busy}>
        Heal {chosen.length ? `${chosen.length} VNFC${chosen.length > 1 ? 's' : ''}` : 'the VNF'}
      </button>
    </form>
  );
}
