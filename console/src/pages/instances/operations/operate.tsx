/** Operate: start or stop the VNF (or chosen VNFCs); a stop may be graceful. */
import { useState } from 'preact/hooks';
import type { OperationFormProps } from './types.ts';

export function OperateForm(props: OperationFormProps) {
  const running = props.info?.vnfState !== 'STOPPED';
  const [state, setState] = useState<'STARTED' | 'STOPPED'>(running ? 'STOPPED' : 'STARTED');
  const [stopType, setStopType] = useState<'FORCEFUL' | 'GRACEFUL'>('FORCEFUL');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.submit({ changeStateTo: state, ...(state === 'STOPPED' ? { stopType } : {}) });
      }}
    >
      <p>The VNF is {props.info?.vnfState ?? 'in an unknown state'}.</p>
      <label>
        Change to
        <select
          name="changeStateTo"
          value={state}
          onChange={(e) => setState(e.currentTarget.value as 'STARTED')}
        >
          <option value="STARTED">started</option>
          <option value="STOPPED">stopped</option>
        </select>
      </label>
      {state === 'STOPPED' && (
        <label>
          Stop
          <select
            name="stopType"
            value={stopType}
            onChange={(e) => setStopType(e.currentTarget.value as 'FORCEFUL')}
          >
            <option value="FORCEFUL">forceful</option>
            <option value="GRACEFUL">graceful</option>
          </select>
        </label>
      )}
      <button type="submit" class="primary" disabled={props.busy}>
        Operate
      </button>
    </form>
  );
}
