/** Terminate: forceful at once, or graceful with the time the VNF gets to stop. */
import { useState } from 'preact/hooks';
import type { OperationFormProps } from './types.ts';

export function TerminateForm(props: OperationFormProps) {
  const [type, setType] = useState<'FORCEFUL' | 'GRACEFUL'>('FORCEFUL');
  const [timeout, setTimeoutSeconds] = useState(60);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.submit({
          terminationType: type,
          ...(type === 'GRACEFUL' ? { gracefulTerminationTimeout: timeout } : {}),
        });
      }}
    >
      <fieldset>
        <legend>Termination</legend>
        {(['FORCEFUL', 'GRACEFUL'] as const).map((t) => (
          <label key={t} class="inline">
            <input
              type="radio"
              name="terminationType"
              value={t}
              checked={type === t}
              onChange={() => setType(t)}
            />
            {t === 'FORCEFUL' ? 'Forceful (at once)' : 'Graceful'}
          </label>
        ))}
      </fieldset>
      {type === 'GRACEFUL' && (
        <label>
          Graceful termination timeout (seconds)
          <input
            type="number"
            min={0}
            name="gracefulTerminationTimeout"
            value={timeout}
            onInput={(e) => setTimeoutSeconds(Math.max(0, Number(e.currentTarget.value) || 0))}
          />
        </label>
      )}
      <button type="submit" class="danger" disabled={props.busy}>
        Terminate
      </button>
    </form>
  );
}
